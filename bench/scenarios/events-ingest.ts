/**
 * POST /messaging/v1/events with x-agent-api-key, paired with the accept-baseline (one INSERT of the event row and
 * one LPUSH in bare Fastify + pg): goal ≥ 0.70× its accepts/s, every 202 durable, the queues drained after each run.
 * Events spread over 1,000 caller thread ids. The service runs with its workers (WORKERS=on), but each measured
 * run pauses the `events` queue (Bull's global pause), so the run measures the accept — the same work as the
 * baseline's — and not the processing of earlier accepts competing for the cores. After the run the queue is
 * resumed and drained; the check counts the rows the run committed against the 202s it answered, and the drain
 * gives the processing rate of those events (`processing_ms`, summed over runs) in the report's notes.
 */
import { defineScenario } from '../scenario.js';
import { drainQueues, pendingQueueJobs, setQueuePaused } from '../lib/environment.js';
import { agentApiKey, LIVE_AGENT_ROUTES, pick, requireRoutes, SHOPPING_QUESTIONS, createLiveAgent } from '../lib/seed.js';

let agentId = '';
/** How long the last settle took to drain the queue (the processing of the run's events). */
let lastDrainMs = 0;

export default defineScenario({
  name: 'events-ingest',
  description: 'POST /messaging/v1/events (202 after the event row is committed); goal ≥ 0.70× accept-baseline, every 202 durable',
  order: 60,
  baseline: 'accept-baseline',
  goal: { ratio: 0.7 },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/events', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    ({ agentId } = await createLiveAgent(ctx, { runtime: 'v1', template: 'shopping-assistant' }));
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
    await setQueuePaused(ctx, 'events', false);
    const start = performance.now();
    await drainQueues(ctx, 'events-ingest');
    lastDrainMs = performance.now() - start;
  },
  async check(ctx) {
    // The baseline's rows are gone by now (the runner deletes them after its run): every row counted is the service's.
    const count = async () =>
      (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE agent_id = $1`, [agentId])).rows[0]?.n ?? 0;
    const before = await count();
    await setQueuePaused(ctx, 'events', true);
    return async (run) => {
      const accepted = run.status_codes['202'] ?? 0;
      const durable = (await count()) - before;
      const pending = await pendingQueueJobs(ctx.redisPrefix);
      if (durable < accepted) ctx.log(`events-ingest: ${accepted - durable} accepted events have no row`);
      return {
        accepted_202: accepted,
        durable_rows: durable,
        accepted_without_row: Math.max(0, accepted - durable),
        queued_after_settle: pending,
        processing_ms: Math.round(lastDrainMs),
      };
    };
  },
});
