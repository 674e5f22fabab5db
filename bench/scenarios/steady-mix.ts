/**
 * The tail under steady load (issue 15): a fixed request rate (`--rate`, default a third of the capacity the
 * unthrottled warm-up measures) held for `--mix-duration` (default 600 s: the 10 minutes) over 20 connections:
 * sends into existing threads and into new ones, events (processed in the same process, WORKERS=on), and thread
 * lists. The report breaks latency and errors down by route and samples the service's RSS and event-loop delay.
 */
import { drainQueues } from '../lib/environment.js';
import { agentApiKey, inParallel, LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';
import { defineScenario } from '../scenario.js';

const CONNECTIONS = 20;

export default defineScenario({
  name: 'steady-mix',
  description: 'fixed-rate mix of sends (existing and new threads), events and thread lists on 20 connections; goal p99 ≤ 50 ms per route',
  order: 90,
  available: (ctx) =>
    requireRoutes(ctx, ['POST /messaging/v1/messages', 'POST /messaging/v1/events', 'GET /management/v1/threads', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers, agentId } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const key = await agentApiKey(ctx, agentId);
    const threads: Array<{ thread_id: string; user_id: string }> = [];
    await inParallel(4 * CONNECTIONS, 8, async (i) => {
      const user_id = `mix-user-${i}`;
      const { body } = await ctx.request<{ thread_id: string }>('POST', '/messaging/v1/messages', {
        headers,
        body: { text: pick(SHOPPING_QUESTIONS, i), user_id },
      });
      threads.push({ thread_id: body.thread_id, user_id });
    });
    ctx.log(`seeded ${threads.length} threads`);
    const list = (filter: string) => `/management/v1/threads?page%5Bsize%5D=50${filter}`;
    return {
      requests: [],
      mix: {
        connections: CONNECTIONS,
        routes: [
          {
            name: 'send-existing-thread',
            share: 0.35,
            request: {
              method: 'POST',
              path: '/messaging/v1/messages',
              headers,
              bodies: threads.map((t, i) => ({ text: pick(SHOPPING_QUESTIONS, i + 3), user_id: t.user_id, thread_id: t.thread_id })),
            },
          },
          {
            name: 'send-new-thread',
            share: 0.2,
            idReplacement: true,
            request: {
              method: 'POST',
              path: '/messaging/v1/messages',
              headers,
              bodies: SHOPPING_QUESTIONS.map((text) => ({ text, user_id: 'mix-user-[<id>]' })),
            },
          },
          {
            name: 'events',
            share: 0.25,
            request: {
              method: 'POST',
              path: '/messaging/v1/events',
              headers: { 'x-agent-api-key': key },
              bodies: Array.from({ length: 1000 }, (_, i) => ({ text: pick(SHOPPING_QUESTIONS, i), thread_id: `mix-thread-${i}` })),
            },
          },
          {
            name: 'threads-list',
            share: 0.2,
            request: {
              method: 'GET',
              path: list(''),
              headers: ctx.org.headers,
              paths: [list(''), list('&user_id=mix-user-7'), list(`&agent_id=${agentId}`)],
            },
          },
        ],
      },
    };
  },
  async settle(ctx) {
    await drainQueues(ctx, 'steady-mix');
  },
});
