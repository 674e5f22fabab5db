/**
 * GET /management/v1/threads, unfiltered and with single filters. Seeds BENCH_THREADS threads (default 2,000)
 * through the messaging API; the million-thread data set of issue 5 comes from its bulk seeder, which should
 * replace this seeding when it lands (`npm run bench -- seed-threads`).
 */
import { defineScenario } from '../scenario.js';
import { inParallel, LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

export default defineScenario({
  name: 'threads-list',
  description: 'GET /management/v1/threads (unfiltered, by user_id, by agent_id), 50 per page',
  order: 70,
  available: (ctx) => requireRoutes(ctx, ['GET /management/v1/threads', 'POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers, agentId } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const count = Number(process.env.BENCH_THREADS ?? 2000);
    await inParallel(count, 8, async (i) => {
      await ctx.request('POST', '/messaging/v1/messages', {
        headers,
        body: { text: pick(SHOPPING_QUESTIONS, i), user_id: `bench-user-${i % 200}` },
      });
    });
    ctx.log(`seeded ${count} threads`);
    return {
      requests: [
        {
          method: 'GET',
          path: '/management/v1/threads',
          headers: ctx.org.headers,
          paths: [
            '/management/v1/threads?page%5Bsize%5D=50',
            '/management/v1/threads?page%5Bsize%5D=50&user_id=bench-user-7',
            `/management/v1/threads?page%5Bsize%5D=50&agent_id=${agentId}`,
          ],
        },
      ],
    };
  },
});
