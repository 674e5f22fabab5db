/**
 * Flat cost as threads grow (issue 15): GET /management/v1/threads/{id}/messages on 1,000-turn threads (the first page,
 * and a page from the middle through its cursor), paired run by run with the same two pages of 50-turn threads (100
 * messages: both pages full) on the same service. Goal: ≥ 0.90× the page requests/s and CPU per page with
 * PostgreSQL's ≤ 1.10×: a page is read without reading the whole thread.
 */
import { type BenchContext, defineScenario } from '../scenario.js';
import { copyThread, type CopiedThread } from '../lib/long-threads.js';
import { LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

const PAGE = 50;
const THREADS = 20;

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
    'GET /management/v1/threads/{id}/messages, first and middle page of 1,000-turn threads; goal ≥ 0.90× and CPU ≤ 1.10× 50-turn threads',
  order: 71,
  baseline: 'self',
  goal: { ratio: 0.9, cpuFactor: 1.1 },
  available: (ctx) =>
    requireRoutes(ctx, ['GET /management/v1/threads/{threadId}/messages', 'POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const { body } = await ctx.request<{ thread_id: string }>('POST', '/messaging/v1/messages', {
      headers,
      body: { text: pick(SHOPPING_QUESTIONS, 0), user_id: 'bench-template' },
    });
    const long = await copyThread(ctx, body.thread_id, THREADS, 1000, 'bench-messages-long-');
    const short = await copyThread(ctx, body.thread_id, THREADS, PAGE, 'bench-messages-short-');
    // The middle of 2,000 messages; on the 100-message threads, the second (and last full) page.
    const longPaths = await pages(ctx, long, 1000);
    const shortPaths = await pages(ctx, short, PAGE);
    ctx.log(`seeded ${THREADS} threads of 1,000 turns and ${THREADS} of ${PAGE} turns`);
    const request = (paths: string[]) => [{ method: 'GET' as const, path: paths[0]!, headers: ctx.org.headers, paths }];
    return { requests: request(longPaths), baseline: { label: `the service, ${PAGE}-turn threads`, requests: request(shortPaths) } };
  },
});
