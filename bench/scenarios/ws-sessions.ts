/**
 * GET /messaging/v1/session (WebSocket): holds BENCH_WS_SESSIONS idle sessions (default 10,000) open on the one
 * service process and reports its RSS (issue 6 goal: under 1 GiB). WebSocket routes are not in the OpenAPI
 * document, so availability is probed with an unauthenticated upgrade: the route exists when it closes with 1008.
 */
import WebSocket from 'ws';
import { defineScenario, type BenchContext } from '../scenario.js';
import { LIVE_AGENT_ROUTES, messagingAgent, requireRoutes } from '../lib/seed.js';

function probeSession(ctx: BenchContext): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${ctx.baseUrl.replace(/^http/, 'ws')}/messaging/v1/session`);
    const timer = setTimeout(() => {
      socket.terminate();
      resolve(false);
    }, 5000);
    socket.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 1008);
    });
    socket.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

export default defineScenario({
  name: 'ws-sessions',
  description: 'GET /messaging/v1/session: 10,000 idle WebSocket sessions on one process; server RSS (goal < 1 GiB)',
  order: 80,
  async available(ctx) {
    const routes = await requireRoutes(ctx, LIVE_AGENT_ROUTES);
    if (routes !== true) return routes;
    return (await probeSession(ctx))
      ? true
      : { reason: 'not available in this build: GET /messaging/v1/session does not upgrade (no 1008 close without credentials)' };
  },
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    return {
      requests: [],
      probes: [
        {
          kind: 'ws-idle',
          path: '/messaging/v1/session',
          headers,
          count: Number(process.env.BENCH_WS_SESSIONS ?? 10_000),
          readyType: 'ready',
        },
      ],
    };
  },
});
