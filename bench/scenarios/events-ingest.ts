/**
 * POST /messaging/v1/events with x-agent-api-key: durable accepts per second (goal ≥ 3,000/s, every 202 committed).
 * Events spread over 1,000 caller thread ids. Processing runs in the same process (WORKERS=on, the default), so
 * it competes for CPU as it would in a one-process deployment; after each run the queues are drained before the
 * next CPU sample.
 */
import { defineScenario } from '../scenario.js';
import { pendingQueueJobs } from '../lib/environment.js';
import { agentApiKey, LIVE_AGENT_ROUTES, pick, requireRoutes, SHOPPING_QUESTIONS, createLiveAgent } from '../lib/seed.js';

const DRAIN_TIMEOUT_MS = 180_000;

export default defineScenario({
  name: 'events-ingest',
  description: 'POST /messaging/v1/events (202 after the event row is committed); goal ≥ 3,000 accepts/s',
  order: 60,
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/events', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { agentId } = await createLiveAgent(ctx, { runtime: 'v1', template: 'shopping-assistant' });
    const key = await agentApiKey(ctx, agentId);
    return {
      unit: 'accepts',
      requests: [
        {
          method: 'POST',
          path: '/messaging/v1/events',
          headers: { 'x-agent-api-key': key },
          bodies: Array.from({ length: 1000 }, (_, i) => ({ text: pick(SHOPPING_QUESTIONS, i), thread_id: `bench-thread-${i}` })),
        },
      ],
    };
  },
  async settle(ctx) {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    let pending = await pendingQueueJobs(ctx.redisPrefix);
    if (pending > 0) ctx.log(`events-ingest: waiting for ${pending} queued jobs to drain`);
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      pending = await pendingQueueJobs(ctx.redisPrefix);
    }
    if (pending > 0) ctx.log(`events-ingest: ${pending} jobs still queued after ${DRAIN_TIMEOUT_MS / 1000} s; continuing`);
  },
});
