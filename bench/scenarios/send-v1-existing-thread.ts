/**
 * POST /messaging/v1/messages into existing threads, paired with the turn-baseline (the same read, engine, write
 * and JSON in bare Fastify + pg): goal ≥ 0.70× its turns/s with p99 ≤ 1.5× its p99 (issue 15).
 * Seeds twice as many threads as connections and spreads requests over them round-robin, so that two turns on the
 * same thread (which the service answers one after the other) rarely meet.
 */
import { defineScenario } from '../scenario.js';
import { inParallel, LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

export default defineScenario({
  name: 'send-v1-existing-thread',
  description: 'POST /messaging/v1/messages with thread_id, v1 engine (shopping-assistant); goal ≥ 0.70× turn-baseline, p99 ≤ 1.5×',
  order: 41,
  baseline: 'turn-baseline',
  goal: { ratio: 0.7, p99Factor: 1.5 },
  work: {
    service: 'the send route: token, validation, the named thread + history read, engine, the named write, JSON',
    baseline: 'the same named read, engine, named write and JSON, no framework',
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const count = Math.max(2 * ctx.connections, 100);
    const threads: Array<{ thread_id: string; user_id: string }> = [];
    await inParallel(count, 8, async (i) => {
      const user_id = `bench-user-${i}`;
      const { body } = await ctx.request<{ thread_id: string }>('POST', '/messaging/v1/messages', {
        headers,
        body: { text: pick(SHOPPING_QUESTIONS, i), user_id },
      });
      threads.push({ thread_id: body.thread_id, user_id });
    });
    ctx.log(`seeded ${threads.length} threads`);
    return {
      unit: 'turns',
      requests: [
        {
          method: 'POST',
          path: '/messaging/v1/messages',
          headers,
          bodies: threads.map((t, i) => ({ text: pick(SHOPPING_QUESTIONS, i + 3), user_id: t.user_id, thread_id: t.thread_id })),
        },
      ],
    };
  },
});
