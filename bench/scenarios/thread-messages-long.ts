/**
 * Flat cost as threads grow (issue 15): GET /management/v1/threads/{id}/messages on 1,000-turn threads (the first page,
 * and the page at message 1,000 through the cursors), paired run by run with the first and second page of 80-turn
 * threads on the same service: the shortest threads where both pages read as many turns as on the long ones (a page
 * of 50 messages reads up to 52 turns from its cursor's turn on). Goal: ≥ 0.90× the page requests/s and CPU per page
 * with PostgreSQL's ≤ 1.10×: a page is read without reading the whole thread.
 */
import { type BenchContext, defineScenario } from '../scenario.js';
import { copyThread, type CopiedThread } from '../lib/long-threads.js';
import { LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

const PAGE = 50;
const THREADS = 20;
const LONG_TURNS = 1000;
const SHORT_TURNS = 80;

/** The first page of each thread, and the page starting at message `middle` (reached by walking the cursors). */
async function pages(ctx: BenchContext, threads: CopiedThread[], middle: number): Promise<string[]> {
  const paths: string[] = [];
  for (const { thread_id } of threads) {
    let path = `/management/v1/threads/${thread_id}/messages?page[size]=${PAGE}`;
    paths.push(path);
    for (let at = 0; at < middle; at += PAGE) {
      const { body } = await ctx.request<{ links: { next: string | null } }>('GET', path, { headers: ctx.org.headers });
      if (!body.links.next) throw new Error(`thread ${thread_id} has no page at message ${at + PAGE}`);
      path = body.links.next;
    }
    paths.push(path);
  }
  return paths;
}

export default defineScenario({
  name: 'thread-messages-long',
  description:
    'GET /management/v1/threads/{id}/messages, first and middle page of 1,000-turn threads; goal ≥ 0.90× and CPU ≤ 1.10× 80-turn threads',
  order: 71,
  baseline: 'self',
  goal: { ratio: 0.9, cpuFactor: 1.1 },
  work: {
    service: 'transcript pages of 1,000-turn threads',
    baseline: 'the same pages of 80-turn threads, same service',
  },
  available: (ctx) =>
    requireRoutes(ctx, ['GET /management/v1/threads/{threadId}/messages', 'POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const { body } = await ctx.request<{ thread_id: string }>('POST', '/messaging/v1/messages', {
      headers,
      body: { text: pick(SHOPPING_QUESTIONS, 0), user_id: 'bench-template' },
    });
    const long = await copyThread(ctx, body.thread_id, THREADS, LONG_TURNS, 'bench-messages-long-');
    const short = await copyThread(ctx, body.thread_id, THREADS, SHORT_TURNS, 'bench-messages-short-');
    const longPaths = await pages(ctx, long, LONG_TURNS); // message 1,000 of 2,000
    const shortPaths = await pages(ctx, short, PAGE);
    ctx.log(`seeded ${THREADS} threads of ${LONG_TURNS} turns and ${THREADS} of ${SHORT_TURNS} turns`);
    const request = (paths: string[]) => [{ method: 'GET' as const, path: paths[0]!, headers: ctx.org.headers, paths }];
    return { requests: request(longPaths), baseline: { label: `the service, ${SHORT_TURNS}-turn threads`, requests: request(shortPaths) } };
  },
});
