/**
 * Events processed per second by the service's own workers (WORKERS=on: in-process, EVENTS_CONCURRENCY 8) against
 * the same turns sent synchronously (POST /messaging/v1/messages, autocannon) into the same threads: goal ≥ 0.70×.
 * One event per conversation creates 100 threads first; each run then sends turns into them for `--duration`
 * seconds, accepts as many events (same texts, same threads, same end users) while processing is paused, and
 * times the workers draining them — from the first completion to the last — with the service's CPU and its
 * PostgreSQL backends' sampled around the drain. Both sides run the turn (history read, engine, write); the events
 * add their claim (batched) and completion, the synchronous side HTTP, authentication and validation.
 */
import { setEventsPaused } from '../lib/environment.js';
import { agentApiKey, inParallel, LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';
import { defineScenario, type BenchContext } from '../scenario.js';

const THREADS = 100;
const EVENTS = '/messaging/v1/events';

/** Waits until no event of the agent is pending (bounded). */
async function settled(ctx: BenchContext, agentId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE agent_id = $1 AND status IN ('queued', 'processing')`,
      [agentId],
    );
    if (rows[0]?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`events-processing: ${rows[0]?.n} events still pending after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export default defineScenario({
  name: 'events-processing',
  description:
    'accepted events drained by the in-process workers per second vs the same turns sent synchronously into the same threads; goal ≥ 0.70×',
  order: 61,
  baseline: 'self',
  goal: { ratio: 0.7 },
  work: {
    service: 'workers draining accepted events: batched claim, thread lookup, the turn, one completion',
    baseline: 'the same turns sent synchronously over HTTP into the same threads',
  },
  available: (ctx) => requireRoutes(ctx, [`POST ${EVENTS}`, 'POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { agentId, headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const eventHeaders = { 'x-agent-api-key': await agentApiKey(ctx, agentId) };
    const conversation = (i: number) => `proc-thread-${i}`;
    await inParallel(THREADS, 8, async (i) => {
      await ctx.request('POST', EVENTS, { headers: eventHeaders, body: { text: pick(SHOPPING_QUESTIONS, i), thread_id: conversation(i) } });
    });
    await settled(ctx, agentId, 120_000);
    const { rows } = await ctx.db.query<{ external_thread_id: string; thread_id: string }>(
      `SELECT external_thread_id, thread_id FROM events WHERE agent_id = $1 AND status = 'completed'`,
      [agentId],
    );
    const threadOf = new Map(rows.map((r) => [r.external_thread_id, r.thread_id.trim()]));
    if (threadOf.size !== THREADS) throw new Error(`events-processing: ${threadOf.size} of ${THREADS} seed events completed`);
    ctx.log(`seeded ${THREADS} threads through events`);
    // The same turn on both sides: text, thread and end user (an event's end user is its thread_id, docs/events.md).
    const turns = Array.from({ length: THREADS }, (_, i) => ({ text: pick(SHOPPING_QUESTIONS, i + 3), conversation: conversation(i) }));
    let startedAt = new Date();
    let next = 0;
    return {
      unit: 'events',
      requests: [],
      baseline: {
        label: 'synchronous turns, same threads',
        requests: [
          {
            method: 'POST',
            path: '/messaging/v1/messages',
            headers,
            bodies: turns.map((t) => ({ text: t.text, user_id: t.conversation, thread_id: threadOf.get(t.conversation) })),
          },
        ],
      },
      drain: {
        async prepare(count) {
          await setEventsPaused(ctx, true);
          startedAt = new Date();
          await inParallel(count, 32, async () => {
            const turn = turns[next++ % turns.length]!;
            await ctx.request('POST', EVENTS, { headers: eventHeaders, body: { text: turn.text, thread_id: turn.conversation } });
          });
        },
        start: () => setEventsPaused(ctx, false),
        async finished() {
          await settled(ctx, agentId, 300_000);
          const {
            rows: [r],
          } = await ctx.db.query<{ done: number; failed: number; span_ms: number }>(
            `SELECT count(*) FILTER (WHERE status = 'completed')::int AS done, count(*) FILTER (WHERE status = 'failed')::int AS failed,
                    (extract(epoch FROM max(completed_at) - min(completed_at)) * 1000)::float8 AS span_ms
               FROM events WHERE agent_id = $1 AND created_at >= $2`,
            [agentId, startedAt],
          );
          // Between the first and the last completion: n − 1 intervals (the first event's own turn is not in the span).
          const done = Math.max(0, (r?.done ?? 0) - 1);
          return { done, failed: r?.failed ?? 0, seconds: (r?.span_ms ?? 0) / 1000 };
        },
      },
    };
  },
});
