/**
 * Time to the first `delta` of POST /messaging/v1/messages/stream, against the engine's own time to its first delta
 * (issue 6 goal: the service adds under 5 ms at the median). A script, not a timed test:
 *
 *   npm run -s build && node dist/bench/stream-first-delta.js [--count 300] [--template shopping-assistant]
 *
 * It stands up the benchmark environment of the harness (the built service in production mode on its own database,
 * see docs/performance.md), creates a live agent from the template, then runs `count` sequential streams, each a new
 * thread, measuring on the client from sending the request to reading the first `delta` event. The engine's time is
 * measured in this process on the same bundle and questions: `RuntimeService.stream()` from the call to its first
 * delta. Both run after a warm-up. The difference is what the transport adds: HTTP, auth, validation, the live-agent
 * lookup, the thread event, and the replay-buffer writes to Redis that precede every event a client sees.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startEnvironment } from './lib/environment.js';
import { Cleanup } from './lib/processes.js';
import { messagingAgent, pick, SHOPPING_QUESTIONS, KNOWLEDGE_QUESTIONS } from './lib/seed.js';
import { loadConfig } from '../src/config/app-config.js';
import { RuntimeService } from '../src/modules/runtime/runtime.service.js';
import type { Bundle } from '../src/modules/bundles/bundle.types.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '300' }, template: { type: 'string', default: 'shopping-assistant' } },
});
const count = Math.max(10, Number(values.count));
const template = values.template!;
const runtime: 'v1' | 'v2' = template === 'knowledge-assistant' ? 'v2' : 'v1';
const questions = runtime === 'v2' ? KNOWLEDGE_QUESTIONS : SHOPPING_QUESTIONS;
const warmup = Math.min(50, Math.ceil(count / 5));

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const stats = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
};
const ms = (n: number) => n.toFixed(2).padStart(8);

/** One stream: ms from sending to the first `delta` event; the rest of the stream is read to the end. */
async function firstDelta(baseUrl: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/messaging/v1/messages/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let text = '';
  let at: number | undefined;
  for await (const chunk of response.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (at === undefined && text.includes('\nevent: delta\n')) at = performance.now() - started;
  }
  if (at === undefined) throw new Error('the stream had no delta event');
  return at;
}

/** The engine alone: ms from calling stream() to its first delta. */
async function engineFirstDelta(engine: RuntimeService, prepared: ReturnType<RuntimeService['prepare']>, text: string): Promise<number> {
  const started = performance.now();
  let at: number | undefined;
  for await (const event of engine.stream(prepared, { text, agentVariables: {}, history: [] })) {
    if (at === undefined && event.type === 'delta') at = performance.now() - started;
  }
  if (at === undefined) throw new Error('the engine produced no delta');
  return at;
}

const cleanup = new Cleanup();
const stop = () => void cleanup.runAll().then(() => process.exit(130));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
try {
  const env = await startEnvironment(cleanup, { connections: 1 });
  const { ctx } = env;
  const { agentId, headers } = await messagingAgent(ctx, runtime, template);
  const agent = (await ctx.request<{ live_version_id: string }>('GET', `/management/v1/agents/${agentId}`, { headers: ctx.org.headers }))
    .body;
  const pulled = (
    await ctx.request<{ bundle: Bundle; version_tag: string }>(
      'GET',
      `/management/v1/agents/${agentId}/versions/${agent.live_version_id}/pull`,
      { headers: ctx.org.headers },
    )
  ).body;

  const engine = new RuntimeService(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' }));
  const prepared = engine.prepare({ digest: `bench-${pulled.version_tag}`, runtime, bundle: pulled.bundle });

  ctx.log(`warm-up: ${warmup} streams and engine runs`);
  for (let i = 0; i < warmup; i++) {
    await firstDelta(ctx.baseUrl, headers, { text: pick(questions, i), user_id: `warm-${i}` });
    await engineFirstDelta(engine, prepared, pick(questions, i));
  }
  ctx.log(`measuring ${count} sequential streams and ${count} engine runs (${template}, runtime ${runtime})`);
  const service: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = pick(questions, i);
    service.push(await firstDelta(ctx.baseUrl, headers, { text, user_id: `bench-${i}` }));
    own.push(await engineFirstDelta(engine, prepared, text));
  }
  const s = stats(service);
  const e = stats(own);
  const lines = [
    `stream-first-delta (${template}, runtime ${runtime}, ${count} sequential streams, new thread each, after ${warmup} warm-up)`,
    `                          p50      p90      p99     mean   (ms)`,
    `request → first delta ${ms(s.p50)} ${ms(s.p90)} ${ms(s.p99)} ${ms(s.mean)}`,
    `engine → first delta  ${ms(e.p50)} ${ms(e.p90)} ${ms(e.p99)} ${ms(e.mean)}`,
    `added by the service  ${ms(s.p50 - e.p50)} ${ms(s.p90 - e.p90)} ${ms(s.p99 - e.p99)} ${ms(s.mean - e.mean)}   (goal: p50 < 5 ms)`,
    `load average during the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1/5/15 min) on this machine; a busy machine inflates every figure`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await cleanup.runAll();
}
