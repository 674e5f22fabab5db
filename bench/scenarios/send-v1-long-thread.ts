/**
 * Flat cost as threads grow (issue 15): POST /messaging/v1/messages into threads with 1,000 earlier turns, paired
 * run by run with the same sends into threads with 1 earlier turn, on the same service and connections. Goal: within
 * 10% (≥ 0.90× the turns/s, CPU per turn with PostgreSQL's ≤ 1.10×): the history read is bounded.
 * The threads are copies of one real send's thread (bench/lib/long-threads.ts). The 1-turn side has more threads than
 * a run sends turns and is taken back to one turn after each of its runs, so every send of it meets one earlier turn.
 */
import { defineScenario } from '../scenario.js';
import { copyThread, truncateThreads, type CopiedThread } from '../lib/long-threads.js';
import { LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

const LONG_TURNS = 1000;

export default defineScenario({
  name: 'send-v1-long-thread',
  description: 'POST /messaging/v1/messages into 1,000-turn threads; goal ≥ 0.90× and CPU/turn ≤ 1.10× the same sends into 1-turn threads',
  order: 42,
  baseline: 'self',
  goal: { ratio: 0.9, cpuFactor: 1.1 },
  work: {
    service: 'sends into 1,000-turn threads',
    baseline: 'the same sends into 1-turn threads, same service',
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const { body } = await ctx.request<{ thread_id: string }>('POST', '/messaging/v1/messages', {
      headers,
      body: { text: pick(SHOPPING_QUESTIONS, 0), user_id: 'bench-template' },
    });
    const long = await copyThread(ctx, body.thread_id, 2 * ctx.connections, LONG_TURNS, 'bench-long-');
    const short = await copyThread(ctx, body.thread_id, Number(process.env.BENCH_SHORT_THREADS ?? 5000), 1, 'bench-short-');
    ctx.log(`seeded ${long.length} threads of ${LONG_TURNS} turns and ${short.length} threads of 1 turn`);
    const sends = (threads: CopiedThread[]) => [
      {
        method: 'POST' as const,
        path: '/messaging/v1/messages',
        headers,
        bodies: threads.map((t, i) => ({ text: pick(SHOPPING_QUESTIONS, i + 3), user_id: t.user_id, thread_id: t.thread_id })),
      },
    ];
    return {
      unit: 'turns',
      requests: sends(long),
      baseline: { label: 'the service, 1-turn threads', requests: sends(short) },
      resetBaseline: () => truncateThreads(ctx, short, 1),
    };
  },
});
