/**
 * POST /messaging/v1/messages/stream (SSE). Autocannon measures whole streams per second under load, each run paired
 * with the same turns sent as JSON (POST /messaging/v1/messages, same bodies, new thread each) to the same service:
 * issue 28's goal is a streamed turn's service CPU at most 1.3× the JSON send's. A probe then sends 200 sequential
 * streams on an otherwise idle service and records the time to the first `delta` event (issue 6: under 5 ms median
 * over the engine's own time).
 */
import { defineScenario } from '../scenario.js';
import { LIVE_AGENT_ROUTES, messagingAgent, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

export default defineScenario({
  name: 'stream-first-delta',
  description: 'POST /messaging/v1/messages/stream (SSE): streams/s under load, then time to first delta (probe)',
  order: 50,
  baseline: 'self',
  goal: { serverCpuFactor: 1.3 },
  work: {
    service: 'streamed turns over SSE: the turn plus its events buffered in Redis and written as frames',
    baseline: 'the same turns answered as JSON, same service',
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages/stream', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const streamHeaders = { ...headers, accept: 'text/event-stream' };
    const bodies = SHOPPING_QUESTIONS.map((text) => ({ text, user_id: 'bench-user-[<id>]' }));
    return {
      unit: 'streams',
      idReplacement: true,
      requests: [{ method: 'POST', path: '/messaging/v1/messages/stream', headers: streamHeaders, bodies }],
      baseline: { label: 'the same turns as JSON sends', requests: [{ method: 'POST', path: '/messaging/v1/messages', headers, bodies }] },
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
