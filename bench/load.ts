/**
 * The load generator, run as its own process (`node dist/bench/load.js <job.json>`) so that its CPU is never
 * counted as the server's, and the runner stays idle while it works.
 *
 * Protocol on stdio, one JSON object per line:
 *   child → {"type":"ready"}            runner samples CPU, then writes "go\n"
 *   child → {"type":"hold", ...}        (ws-idle only) sessions are open; runner reads memory, then writes "release\n"
 *   child → {"type":"result", ...}      the measurements; the child then exits
 */
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import autocannon, { type AutocannonRequest } from 'autocannon';
import WebSocket from 'ws';
import type { Probe, RequestSpec } from './scenario.js';

/** One route of a fixed-rate mix: its own connections and rate, so that every route's latency is its own. */
export interface MixRouteJob {
  name: string;
  connections: number;
  /** Requests per second over this route's connections; 0: as fast as the server answers. */
  rate: number;
  requests: RequestSpec[];
  idReplacement?: boolean;
}

export type LoadJob =
  | { kind: 'autocannon'; baseUrl: string; connections: number; duration: number; requests: RequestSpec[]; idReplacement?: boolean }
  | { kind: 'mix'; baseUrl: string; duration: number; routes: MixRouteJob[] }
  | { kind: 'probe'; baseUrl: string; probe: Probe };

export interface AutocannonSummary {
  requests: number;
  duration_s: number;
  rps: number;
  latency_p50_ms: number;
  /** Percentiles from every response's own latency (autocannon's histogram has no p95). */
  latency_p95_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  latency_avg_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  loadgen_cpu_us: number;
}

const lines = createInterface({ input: process.stdin });
const waiting: Array<(line: string) => void> = [];
lines.on('line', (line) => waiting.shift()?.(line.trim()));
const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
const send = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

export function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const round = (n: number) => Math.round(n * 100) / 100;

function toAutocannon(spec: RequestSpec): AutocannonRequest {
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  const hasBody = spec.body !== undefined || (spec.bodies?.length ?? 0) > 0;
  if (hasBody && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const request: AutocannonRequest = { method: spec.method, path: spec.path, headers };
  const body = encodeBody(spec.body);
  if (body !== undefined) request.body = body;
  const bodies = (spec.bodies ?? []).map((b) => encodeBody(b) ?? '');
  const paths = spec.paths ?? [];
  if (bodies.length > 0 || paths.length > 0) {
    let next = 0;
    request.setupRequest = (req) => {
      const n = next++;
      const varied: AutocannonRequest = { ...req };
      if (bodies.length > 0) varied.body = bodies[n % bodies.length] ?? '';
      if (paths.length > 0) varied.path = paths[n % paths.length] ?? req.path;
      return varied;
    };
  }
  return request;
}

interface CannonJob {
  baseUrl: string;
  connections: number;
  duration: number;
  requests: RequestSpec[];
  idReplacement?: boolean;
  rate?: number;
}

async function runAutocannon(job: CannonJob): Promise<AutocannonSummary> {
  const cpuBefore = process.cpuUsage();
  const latencies: number[] = [];
  const instance = autocannon({
    url: job.baseUrl,
    connections: job.connections,
    duration: job.duration,
    requests: job.requests.map(toAutocannon),
    idReplacement: job.idReplacement ?? false,
    timeout: 30,
    ...(job.rate ? { overallRate: job.rate } : {}),
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]));
  return {
    requests: result.requests.total,
    duration_s: result.duration,
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    // Every percentile from the same samples, so that p50 ≤ p95 ≤ p99 ≤ max holds (autocannon's histogram rounds to 1 ms).
    latency_p50_ms: round(percentile(latencies, 50)),
    latency_p95_ms: round(percentile(latencies, 95)),
    latency_p99_ms: round(percentile(latencies, 99)),
    latency_max_ms: round(latencies[latencies.length - 1] ?? 0),
    latency_avg_ms: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: statusCodes,
    loadgen_cpu_us: cpu.user + cpu.system,
  };
}

/**
 * An open-loop load at a fixed rate: request n is due at start + n ÷ rate, whatever the answers before it did, over
 * at most `connections` keep-alive sockets; its latency counts from when it was due, so time spent waiting for a free
 * socket behind a slow answer is in the figure (no coordinated omission). autocannon's `overallRate` is not a steady
 * rate: each connection sends back to back until its quota for the second is used, then waits for the next second,
 * so a third of the capacity arrives as a burst at full speed at the start of every second.
 */
async function runPaced(job: CannonJob & { rate: number }): Promise<AutocannonSummary> {
  const cpuBefore = process.cpuUsage();
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const base = new URL(job.baseUrl);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const fire = (n: number, due: number) => {
    const spec = job.requests[n % job.requests.length]!;
    let path = spec.paths?.length ? spec.paths[n % spec.paths.length]! : spec.path;
    let body = spec.bodies?.length ? encodeBody(spec.bodies[n % spec.bodies.length]) : encodeBody(spec.body);
    if (job.idReplacement) {
      const id = randomUUID();
      path = path.replaceAll('[<id>]', id);
      body = body?.replaceAll('[<id>]', id);
    }
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const done = new Promise<void>((resolve) => {
      const req = httpRequest(
        { host: base.hostname, port: base.port, method: spec.method, path, headers, agent, timeout: 30_000 },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            const code = String(res.statusCode ?? 0);
            statusCodes[code] = (statusCodes[code] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const start = performance.now();
  const end = start + job.duration * 1000;
  const interval = 1000 / job.rate;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      // Every request due by now (a late timer tick sends the ones it missed, each with its own due time).
      for (let due = start + sent * interval; due <= now && due < end; due = start + sent * interval) fire(sent++, due);
      if (now >= end) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const answered = latencies.length;
  return {
    requests: answered,
    duration_s: elapsed,
    rps: answered / job.duration,
    latency_p50_ms: round(percentile(latencies, 50)),
    latency_p95_ms: round(percentile(latencies, 95)),
    latency_p99_ms: round(percentile(latencies, 99)),
    latency_max_ms: round(latencies[answered - 1] ?? 0),
    latency_avg_ms: round(answered ? latencies.reduce((a, b) => a + b, 0) / answered : 0),
    non2xx: Object.entries(statusCodes).reduce((n, [code, count]) => (code.startsWith('2') ? n : n + count), 0),
    errors: errors + timeouts,
    timeouts,
    status_codes: statusCodes,
    loadgen_cpu_us: cpu.user + cpu.system,
  };
}

async function sseFirstEvent(baseUrl: string, probe: Extract<Probe, { kind: 'sse-first-event' }>): Promise<Record<string, number>> {
  const first: number[] = [];
  const total: number[] = [];
  let failures = 0;
  const body = encodeBody(probe.request.body ?? probe.request.bodies?.[0]);
  for (let i = 0; i < probe.count; i++) {
    const started = performance.now();
    try {
      const response = await fetch(baseUrl + probe.request.path, {
        method: probe.request.method,
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...(probe.request.headers ?? {}) },
        body,
      });
      if (!response.ok || !response.body) {
        failures++;
        await response.body?.cancel();
        continue;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      let firstAt: number | undefined;
      for await (const chunk of response.body) {
        if (firstAt === undefined) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          if (new RegExp(`^event: ?${probe.event}$`, 'm').test(buffer)) firstAt = performance.now();
        }
      }
      if (firstAt === undefined) failures++;
      else first.push(firstAt - started);
      total.push(performance.now() - started);
    } catch {
      failures++;
    }
  }
  first.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  return {
    [`first_${probe.event}_p50_ms`]: round(percentile(first, 50)),
    [`first_${probe.event}_p99_ms`]: round(percentile(first, 99)),
    stream_total_p50_ms: round(percentile(total, 50)),
    samples: first.length,
    failures,
  };
}

async function wsIdle(baseUrl: string, probe: Extract<Probe, { kind: 'ws-idle' }>): Promise<Record<string, number>> {
  const url = baseUrl.replace(/^http/, 'ws') + probe.path;
  const sockets: WebSocket[] = [];
  let failed = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(url, probe.protocols ?? [], { headers: probe.headers ?? {} });
      const timer = setTimeout(() => {
        failed++;
        socket.terminate();
        resolve();
      }, 30_000);
      socket.on('message', (data: WebSocket.RawData) => {
        try {
          const frame = JSON.parse(data.toString()) as { type?: string };
          if (frame.type === probe.readyType) {
            clearTimeout(timer);
            sockets.push(socket);
            resolve();
          }
        } catch {
          /* ignore */
        }
      });
      socket.on('error', () => {
        clearTimeout(timer);
        failed++;
        resolve();
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const started = performance.now();
  const batch = 200;
  for (let i = 0; i < probe.count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, probe.count - i) }, open));
  }
  const openMs = performance.now() - started;
  send({ type: 'hold', opened: sockets.length, failed });
  await nextLine();
  const stillOpen = sockets.filter((s) => s.readyState === WebSocket.OPEN).length;
  for (const socket of sockets) socket.terminate();
  return {
    sessions_requested: probe.count,
    sessions_opened: sockets.length,
    sessions_failed: failed,
    still_open_at_release: stillOpen,
    open_all_ms: Math.round(openMs),
  };
}

const jobFile = process.argv[2];
if (!jobFile) {
  process.stderr.write('usage: node dist/bench/load.js <job.json>\n');
  process.exit(2);
}
const job = JSON.parse(readFileSync(jobFile, 'utf8')) as LoadJob;
send({ type: 'ready' });
await nextLine();
try {
  if (job.kind === 'autocannon') {
    send({ type: 'result', autocannon: await runAutocannon(job) });
  } else if (job.kind === 'mix') {
    // Every route at once, each on its own connections and rate (unthrottled: autocannon, closed loop); CPU figures are for the whole process.
    const summaries = await Promise.all(
      job.routes.map((route) => {
        const routeJob = { ...route, baseUrl: job.baseUrl, duration: job.duration };
        return route.rate > 0 ? runPaced(routeJob) : runAutocannon(routeJob);
      }),
    );
    send({ type: 'result', mix: Object.fromEntries(job.routes.map((route, i) => [route.name, summaries[i]])) });
  } else if (job.probe.kind === 'sse-first-event') {
    send({ type: 'result', extra: await sseFirstEvent(job.baseUrl, job.probe) });
  } else {
    send({ type: 'result', extra: await wsIdle(job.baseUrl, job.probe) });
  }
} catch (error) {
  send({ type: 'error', message: (error as Error).stack ?? String(error) });
}
lines.close();
process.exit(0);
