/**
 * The liveness probe while clients hold the service's sockets without reading (issue 34, item 7). A script, not a
 * load scenario:
 *
 *   npm run -s build && node dist/bench/slow-readers.js [--sse 220] [--ws 300] [--big 20] [--bodies 100] [--seconds 10]
 *
 * It stands up the benchmark environment (the built service in production mode on its own database, see
 * docs/performance.md) with a local OpenAI-compatible fake whose streamed reply is 1.2 MB when the question asks for
 * it, then runs four phases and probes `GET /health` every 100 ms on a fresh connection during each (as a
 * Kubernetes probe does):
 *  - idle: nothing else;
 *  - sse: `--sse` streams (`POST /messaging/v1/messages/stream`) opened and never read, `--big` of them asking for the
 *    1.2 MB reply;
 *  - ws: `--ws` WebSocket sessions, each sending one message and never reading, `--big` of them for the 1.2 MB reply;
 *  - bodies: `--bodies` unauthenticated 1 MiB `POST /management/v1/auth/token` requests at once.
 * Goal: every probe answered under 1 s.
 */
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startEnvironment } from './lib/environment.js';
import { Cleanup } from './lib/processes.js';
import { accessToken, createLiveAgent, publishableKey } from './lib/seed.js';
import type { BenchContext } from './scenario.js';

const { values } = parseArgs({
  options: {
    sse: { type: 'string', default: '220' },
    ws: { type: 'string', default: '300' },
    big: { type: 'string', default: '20' },
    bodies: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
  },
});
const counts = { sse: Number(values.sse), ws: Number(values.ws), big: Number(values.big), bodies: Number(values.bodies) };
const phaseMs = Number(values.seconds) * 1000;
const BIG_MARKER = 'send the long answer';
const BIG_REPLY_BYTES = 1_200_000;
const log = (message: string) => process.stderr.write(`[slow-readers] ${message}\n`);

/** An OpenAI-compatible Chat Completions stream: a short reply, or 1.2 MB in 16 KiB pieces when asked for it. */
async function startFakeModel(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { messages?: Array<{ content?: unknown }> };
      const asked = JSON.stringify(body.messages?.at(-1)?.content ?? '');
      const piece = 'x'.repeat(16 * 1024);
      const pieces = asked.includes(BIG_MARKER)
        ? Array.from({ length: Math.ceil(BIG_REPLY_BYTES / piece.length) }, () => piece)
        : ['Here', ' you', ' are.'];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
      for (const text of pieces) res.write(chunk({ content: text }));
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [], usage: { prompt_tokens: 10, completion_tokens: pieces.length, total_tokens: 10 + pieces.length } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A live shopping agent whose replies the fake model writes; a Bearer header for its messaging surface. */
async function modelAgent(ctx: BenchContext): Promise<{ headers: Record<string, string>; token: string }> {
  const { agentId } = await createLiveAgent(ctx, { runtime: 'v1', template: 'shopping-assistant' });
  const live = (await ctx.request<{ live_version_id: string }>('GET', `/management/v1/agents/${agentId}`, { headers: ctx.org.headers }))
    .body;
  const pulled = await ctx.request<{ bundle: Record<string, unknown> }>(
    'GET',
    `/management/v1/agents/${agentId}/versions/${live.live_version_id}/pull`,
    { headers: ctx.org.headers },
  );
  const version = await ctx.request<{ id: string }>('POST', `/management/v1/agents/${agentId}/versions`, {
    headers: ctx.org.headers,
    body: { source: 'clone', from_version_id: live.live_version_id },
  });
  const bundle = { ...pulled.body.bundle, model: { provider: 'openai', name: 'fake', temperature: 0, max_output_tokens: 300 } };
  await ctx.request('POST', `/management/v1/agents/${agentId}/versions/${version.body.id}/push`, {
    headers: ctx.org.headers,
    body: { bundle },
  });
  await ctx.request('POST', `/management/v1/agents/${agentId}/versions/${version.body.id}/publish`, { headers: ctx.org.headers });
  const token = await accessToken(ctx, await publishableKey(ctx, agentId));
  return { headers: { authorization: `Bearer ${token}` }, token };
}

/** `GET /health` every 100 ms on a fresh connection for `ms`; each probe's latency, or 10 s when it failed. */
async function probeHealth(baseUrl: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const started = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      const req = httpRequest(`${baseUrl}/health`, { agent: false, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.end();
    });
    latencies.push(ok ? performance.now() - started : 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return latencies;
}

/** Opens a stream and stops reading after the response headers; the request is kept to be destroyed later. */
function unreadStream(baseUrl: string, headers: Record<string, string>, text: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}/messaging/v1/messages/stream`,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' } },
      (res: IncomingMessage) => {
        res.pause();
        res.on('error', () => undefined);
        resolve(req);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ text, user_id: 'slow-reader' }));
  });
}

/** A session that sends one message and never reads what comes back. */
function unreadSession(baseUrl: string, token: string, text: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/messaging/v1/session`, ['bearer', token]);
    socket.on('error', reject);
    socket.once('message', () => {
      socket.send(JSON.stringify({ type: 'message', id: 'r1', text, user_id: 'slow-reader' }));
      socket.pause();
      resolve(socket);
    });
  });
}

/** One unauthenticated 1 MiB JSON body to the token route; resolves with the status (0 on a reset). */
function bigTokenBody(baseUrl: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${baseUrl}/management/v1/auth/token`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(JSON.stringify({ grant_type: 'publishable_key', publishable_key: 'p'.repeat(1024 * 1024) }));
  });
}

const question = (index: number) => (index < counts.big ? `Please ${BIG_MARKER} about trail shoes` : 'Do you have trail shoes?');

interface PhaseResult {
  phase: string;
  load: string;
  probes: number[];
}

function row({ phase, load, probes }: PhaseResult): string {
  const sorted = [...probes].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const max = sorted.at(-1)!;
  return `| ${phase} | ${load} | ${sorted.length} | ${at(0.5).toFixed(1)} | ${at(0.99).toFixed(1)} | ${max.toFixed(1)} | ${max < 1000 ? 'met' : 'not met'} |`;
}

const cleanup = new Cleanup();
const stop = () => void cleanup.runAll().then(() => process.exit(130));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
try {
  const model = await startFakeModel();
  cleanup.add('stop the fake model', () => model.close());
  const env = await startEnvironment(cleanup, { connections: 1, serviceEnv: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-fake' } });
  const { ctx } = env;
  const agent = await modelAgent(ctx);
  const results: PhaseResult[] = [];
  const loadBefore = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

  log('idle');
  results.push({ phase: 'idle', load: 'nothing else', probes: await probeHealth(ctx.baseUrl, phaseMs) });

  log(`sse: opening ${counts.sse} streams, ${counts.big} of them for ${BIG_REPLY_BYTES / 1e6} MB replies, never read`);
  const streamsOpening = Array.from({ length: counts.sse }, (_, i) => unreadStream(ctx.baseUrl, agent.headers, question(i)));
  const sseProbes = probeHealth(ctx.baseUrl, phaseMs);
  const streams = await Promise.allSettled(streamsOpening);
  results.push({
    phase: 'sse',
    load: `${streams.filter((s) => s.status === 'fulfilled').length}/${counts.sse} streams open and unread (${counts.big} × 1.2 MB)`,
    probes: await sseProbes,
  });
  for (const s of streams) if (s.status === 'fulfilled') s.value.destroy();

  log(`ws: opening ${counts.ws} sessions, ${counts.big} of them for ${BIG_REPLY_BYTES / 1e6} MB replies, never read`);
  const sessionsOpening = Array.from({ length: counts.ws }, (_, i) => unreadSession(ctx.baseUrl, agent.token, question(i)));
  const wsProbes = probeHealth(ctx.baseUrl, phaseMs);
  const sessions = await Promise.allSettled(sessionsOpening);
  results.push({
    phase: 'ws',
    load: `${sessions.filter((s) => s.status === 'fulfilled').length}/${counts.ws} sessions open and unread (${counts.big} × 1.2 MB)`,
    probes: await wsProbes,
  });
  for (const s of sessions) if (s.status === 'fulfilled') s.value.terminate();

  log(`bodies: ${counts.bodies} unauthenticated 1 MiB token requests at once`);
  const bodies = Promise.all(Array.from({ length: counts.bodies }, () => bigTokenBody(ctx.baseUrl)));
  const bodyProbes = await probeHealth(ctx.baseUrl, phaseMs);
  const statuses = await bodies;
  const byStatus = Object.entries(statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}))
    .map(([status, n]) => `${n}× ${status === '0' ? 'reset' : status}`)
    .join(', ');
  results.push({ phase: 'bodies', load: `${counts.bodies} × 1 MiB unauthenticated token requests (${byStatus})`, probes: bodyProbes });

  const loadAfter = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  process.stdout.write(
    [
      `Load average (1/5/15 min): ${loadBefore} at the start, ${loadAfter} at the end; GET /health every 100 ms on a fresh connection for ${phaseMs / 1000} s per phase`,
      '',
      '| phase | load held | probes | p50 ms | p99 ms | max ms | goal: max < 1 s |',
      '|---|---|---:|---:|---:|---:|---|',
      ...results.map(row),
      '',
    ].join('\n'),
  );
} finally {
  await cleanup.runAll();
}
