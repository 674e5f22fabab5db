/**
 * POST /messaging/v1/messages/stream (SSE). Autocannon measures whole streams per second under load; a probe then
 * sends 200 sequential streams on an otherwise idle service and records the time to the first `delta` event.
 * Issue 6's goal compares that first-delta time with the engine's own time (under 5 ms median over it).
 */
import { defineScenario } from '../scenario.js';
import { LIVE_AGENT_ROUTES, messagingAgent, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

export default defineScenario({
  name: 'stream-first-delta',
  description: 'POST /messaging/v1/messages/stream (SSE): streams/s under load, then time to first delta (probe)',
  order: 50,
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages/stream', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const streamHeaders = { ...headers, accept: 'text/event-stream' };
    const bodies = SHOPPING_QUESTIONS.map((text) => ({ text, user_id: 'bench-user-[<id>]' }));
    return {
      unit: 'streams',
      idReplacement: true,
      requests: [{ method: 'POST', path: '/messaging/v1/messages/stream', headers: streamHeaders, bodies }],
      probes: [
        {
          kind: 'sse-first-event',
          event: 'delta',
          count: 200,
          request: {
            method: 'POST',
            path: '/messaging/v1/messages/stream',
            headers: streamHeaders,
            body: { text: SHOPPING_QUESTIONS[0], user_id: 'bench-probe' },
          },
        },
      ],
    };
  },
});
