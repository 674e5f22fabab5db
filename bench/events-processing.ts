/**
 * Events webhook throughput, accept side and processing side (docs/performance.md "Events"):
 * `npm run -s build && node dist/bench/events-processing.js [--ingest-seconds S] [--connections C] [--events N] [--threads T] [--workers W]`.
 *
 * 1. Ingest: autocannon (its own process, C connections, S seconds) posts events to an API-only process
 *    (WORKERS=off, as API replicas run when workers are scaled apart); reports accepts/s and latency, and checks
 *    that every 202 is a row in PostgreSQL. Those events are then discarded.
 * 2. Processing: accepts N events over T caller thread ids, stops the API, starts W `npm run worker` processes
 *    (EVENTS_CONCURRENCY each, default 8) and measures how fast they drain the backlog with the builtin engine:
 *    events/s between the first and the last completion (process start-up excluded).
 * Uses its own database and Redis key prefix; stops everything it started. Bounded: 5 minutes at most.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const EVENTS = Number(args.get('events') ?? 2000);
const THREADS = Number(args.get('threads') ?? 100);
const WORKERS = Number(args.get('workers') ?? 1);
const INGEST_SECONDS = Number(args.get('ingest-seconds') ?? 10);
const CONNECTIONS = Number(args.get('connections') ?? 50);

const ADMIN_URL = process.env.BENCH_PG_URL
  ? `${process.env.BENCH_PG_URL}/postgres`
  : 'postgres://agent_service:agent_service@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const RUN = `p${process.pid}`;
const DB_NAME = `agent_bench_events_${RUN}`;
const PREFIX = `bench-events:${RUN}`;
const ORG_KEY = `oak_bench_events_${RUN}_0123456789`;
const LOG_DIR = mkdtempSync(path.join(tmpdir(), 'events-processing-'));
const children = new Set<ChildProcess>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dbUrl = () => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
};

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl(),
    REDIS_URL,
    REDIS_KEY_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-events-secret-0123456789abcdef0123456789',
    RATE_LIMIT_MAX: '0',
    MIGRATE_ON_START: 'false',
    ...extra,
  };
}

function spawnService(name: string, script: string, vars: NodeJS.ProcessEnv): ChildProcess {
  const out = openSync(path.join(LOG_DIR, `${name}.log`), 'a');
  const child = spawn(process.execPath, script.split(' '), { env: vars, stdio: ['ignore', out, out] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped bench JSON
async function post(base: string, pathname: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const res = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${pathname}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function stopAll(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  '2xx': number;
}

/** Phase 1: accepts per second against the API-only process; every 202 must be a committed row. */
async function ingest(base: string, key: string, db: pg.Pool, apiPid: number | undefined): Promise<void> {
  const body = JSON.stringify({ text: 'show me trail shoes', thread_id: 'ingest', agent_variables: { source: 'bench' } });
  const warm = [
    '-c',
    String(CONNECTIONS),
    '-d',
    '3',
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-H',
    `x-agent-api-key=${key}`,
    '-b',
    body,
    '-j',
    `${base}/messaging/v1/events`,
  ];
  const run = (argv: string[]) =>
    new Promise<AutocannonJson>((resolve, reject) => {
      const child = spawn(process.execPath, ['node_modules/autocannon/autocannon.js', ...argv], { stdio: ['ignore', 'pipe', 'ignore'] });
      children.add(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.on('exit', (code) => {
        children.delete(child);
        if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
        resolve(JSON.parse(out) as AutocannonJson);
      });
    });
  await run(warm);
  await db.query(`DELETE FROM events`);
  const apiCpuBefore = apiPid ? cpuMicros(apiPid) : 0;
  const argv = [...warm];
  argv[3] = String(INGEST_SECONDS);
  const result = await run(argv);
  const {
    rows: [stored],
  } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events`);
  console.log(`events ingest: ${CONNECTIONS} connections × ${INGEST_SECONDS} s against an API-only process (WORKERS=off)`);
  console.log(
    `  ${Math.round(result.requests.total / INGEST_SECONDS)} accepts/s (202: ${result['2xx']}, non-2xx ${result.non2xx}, errors ${result.errors}); p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  // Requests still in flight when autocannon stops are committed but not counted: at most one per connection.
  const extra = (stored?.n ?? 0) - result['2xx'];
  const durable = extra >= 0 && extra <= CONNECTIONS;
  console.log(
    `  rows committed: ${stored?.n} for ${result['2xx']} counted 202s (${durable ? `every 202 is a row; ${extra} more were in flight at the stop` : 'MISMATCH: a 202 without its row'})`,
  );
  if (apiPid) {
    const cpu = cpuMicros(apiPid) - apiCpuBefore;
    console.log(`  API process CPU: ${Math.round(cpu / Math.max(1, stored?.n ?? 1))} µs per accept`);
  }
  await db.query(`DELETE FROM events`);
  await deleteKeys();
}

/** utime + stime of a process, in µs (Linux /proc; clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function deleteKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = nextCursor;
  } while (cursor !== '0');
  redis.disconnect();
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  const db = new pg.Pool({ connectionString: dbUrl(), max: 2 });
  try {
    await new Promise<void>((resolve, reject) => {
      const m = spawn(process.execPath, ['dist/src/database/migrate.js'], { env: env({}), stdio: ['ignore', 'ignore', 'inherit'] });
      m.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`))));
    });
    const port = await freePort();
    const profile = process.env.EVENTS_BENCH_CPU_PROFILE_DIR;
    const api = spawnService(
      'api',
      profile ? `--cpu-prof --cpu-prof-dir=${profile} dist/src/main.js` : 'dist/src/main.js',
      env({ PORT: String(port), WORKERS: 'off', BOOTSTRAP_ORG_API_KEY: ORG_KEY, BOOTSTRAP_ORG_NAME: 'bench' }),
    );
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i += 1) {
      if (i > 150) throw new Error(`the API did not start; see ${LOG_DIR}`);
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break;
      } catch {
        /* not yet */
      }
      await sleep(200);
    }
    const org = { 'x-organization-api-key': ORG_KEY };
    const project = await post(base, '/management/v1/projects', { name: 'bench' }, org);
    const agent = await post(base, `/management/v1/projects/${project.id}/agents`, { name: 'bench', runtime: 'v1' }, org);
    const version = await post(
      base,
      `/management/v1/agents/${agent.id}/versions`,
      { source: 'template', template: 'shopping-assistant' },
      org,
    );
    await post(base, `/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org);
    const key = (await post(base, `/management/v1/agents/${agent.id}/api-keys`, {}, org)).api_key as string;
    if (INGEST_SECONDS > 0) await ingest(base, key, db, api.pid);
    const questions = ['show me trail shoes', 'do you have rain jackets under $150', 'what backpacks do you have', 'where is my order'];
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = next++; i < EVENTS; i = next++) {
          await post(
            base,
            '/messaging/v1/events',
            { text: questions[i % questions.length], thread_id: `thread-${i % THREADS}` },
            { 'x-agent-api-key': key },
          );
        }
      }),
    );
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));

    const started = Date.now();
    for (let w = 0; w < WORKERS; w += 1) spawnService(`worker-${w}`, 'dist/src/worker.js', env({ WORKERS: 'on' }));
    for (;;) {
      const {
        rows: [r],
      } = await db.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM events WHERE status IN ('queued', 'processing')`);
      if (r?.pending === 0) break;
      if (Date.now() - started > 240_000) throw new Error(`${r?.pending} events still pending after 240 s`);
      await sleep(250);
    }
    const {
      rows: [s],
    } = await db.query<{ completed: number; failed: number; span_ms: number }>(
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              (extract(epoch FROM max(completed_at) - min(completed_at)) * 1000)::int AS span_ms FROM events`,
    );
    const rate = ((s!.completed - 1) / s!.span_ms) * 1000;
    console.log(
      `events processing: ${EVENTS} events over ${THREADS} threads, ${WORKERS} worker process(es) × EVENTS_CONCURRENCY ${process.env.EVENTS_CONCURRENCY ?? 8}`,
    );
    console.log(`  completed ${s!.completed}, failed ${s!.failed}; first→last completion ${s!.span_ms} ms`);
    console.log(`  throughput ${rate.toFixed(0)} events/s (${(rate / Math.min(THREADS, EVENTS)).toFixed(1)} per thread/s)`);
  } finally {
    await stopAll();
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await deleteKeys();
  }
}

const watchdog = setTimeout(() => {
  for (const child of children) child.kill('SIGKILL');
  process.stderr.write('events-processing: over 5 minutes, stopping\n');
  process.exit(1);
}, 300_000);
watchdog.unref();

try {
  await main();
} catch (error) {
  process.stderr.write(`events-processing failed: ${error instanceof Error ? error.stack : String(error)}\n(logs in ${LOG_DIR})\n`);
  process.exitCode = 1;
}
