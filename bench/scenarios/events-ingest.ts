/**
 * POST /messaging/v1/events with x-agent-api-key, paired with the accept-baseline (the service's own group commit of
 * the event row and its wake-up policy in bare Fastify + pg): goal ≥ 0.70× its accepts/s, every 202 durable, the
 * backlog drained after each run.
 * Events spread over 1,000 caller thread ids. The service runs with its workers (WORKERS=on), but each measured
 * and its baseline's run pause their processing (the Redis key they read before claiming, docs/events.md "Pause"), so
 * the runs measure the accept — the same work on both sides — and not the processing of earlier accepts competing
 * for the cores (nor the service's workers processing the baseline's rows, which the runner deletes after its run).
 * With `--default-config` the service's run is measured with its workers processing (the default deployment), its
 * baseline's still paused. After each run of the service processing resumes and the backlog drains, then pauses again; the check counts the rows the run committed against the 202s it answered, and the drain
 * gives the processing rate of those events (`processing_ms`, summed over runs) in the report's notes.
 */
import { defineScenario } from '../scenario.js';
import { drainQueues, pendingEvents, pendingQueueJobs, setEventsPaused } from '../lib/environment.js';
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
  work: {
    service: 'the accept route: key, body rules, cached agent, the group-commit INSERT (named), the wake-up PUBLISH, 202',
    baseline: "the service's own GroupInsert, statement and wake-up with the key check, no framework",
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/events', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    ({ agentId } = await createLiveAgent(ctx, { runtime: 'v1', template: 'shopping-assistant' }));
    const key = await agentApiKey(ctx, agentId);
    await setEventsPaused(ctx, true);
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
    await setEventsPaused(ctx, false);
    const start = performance.now();
    await drainQueues(ctx, 'events-ingest');
    lastDrainMs = performance.now() - start;
    await setEventsPaused(ctx, true);
  },
  finish: (ctx) => setEventsPaused(ctx, false),
  async check(ctx) {
    // The baseline's rows are gone by now (the runner deletes them after its run): every row counted is the service's.
    const count = async () =>
      (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE agent_id = $1`, [agentId])).rows[0]?.n ?? 0;
    const before = await count();
    if (ctx.configuration === 'default') await setEventsPaused(ctx, false);
    return async (run) => {
      const accepted = run.status_codes['202'] ?? 0;
      const durable = (await count()) - before;
      const pending = (await pendingQueueJobs(ctx.redisPrefix)) + (await pendingEvents(ctx));
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
