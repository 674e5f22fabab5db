// Fault tests of the events webhook (docs/events.md), against the built service (dist/) in real processes:
//   a) kill -9 of one of two worker processes in the middle of 1,000 events: every event completed, none twice, order
//      kept per thread, and the events the killed worker held taken over by the other through their expired leases
//      (`takeovers`), not by a sweep; prints how long after the kill they resumed;
//   b) the Redis keys of this run's prefix deleted mid-run (wake-ups and rate limits lost): the workers' own claims
//      carry on;
//   c) PostgreSQL unreachable for an API process (a TCP proxy of ours, killed): 502/503, nothing half-accepted.
// Nothing shared is stopped: this run has its own database, its own Redis key prefix and its own proxy.
// Bounded: every wait has a deadline; the whole script stops itself after OVERALL_LIMIT_MS.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { Redis } from 'ioredis';
import { deletePrefixKeys, freePort, ProcessRun, sleep, waitFor } from '../support/process-run.js';

const ADMIN_URL = process.env.FAULTS_ADMIN_DATABASE_URL ?? 'postgres://agent_service:agent_service@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.FAULTS_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const RUN = `f${process.pid}x${Date.now().toString(36).slice(-4)}`;
const DB_NAME = `agent_${RUN}_faults`;
const PREFIX = `faults:${RUN}`;
const ORG_KEY = `oak_faults_${RUN}_0123456789`;
const OVERALL_LIMIT_MS = 210_000;

const dbUrl = (port = 5432) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  url.port = String(port);
  return url.toString();
};

const run = new ProcessRun('faults', OVERALL_LIMIT_MS);
const check = (name: string, ok: boolean, detail = '') => run.check(name, ok, detail);

/** A TCP proxy we own, between one API process and PostgreSQL: killing it is that process's outage only. */
async function startProxy(targetPort: number): Promise<{ port: number; kill: () => Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    kill: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: dbUrl(),
    REDIS_URL,
    REDIS_KEY_PREFIX: PREFIX,
    MIGRATE_ON_START: 'false',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'faults-secret-0123456789abcdef0123456789abcdef',
    RATE_LIMIT_MAX: '0',
    // EVENTS_LEASE_MS and EVENTS_POLL_MS keep their defaults: the resume time printed is the default configuration's.
    EVENTS_BACKOFF_MS: '200',
    ...extra,
  };
}

async function startApi(name: string, extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = run.spawn(name, ['dist/src/main.js'], baseEnv({ PORT: String(port), HOST: '127.0.0.1', WORKERS: 'off', ...extraEnv }));
  const base = `http://127.0.0.1:${port}`;
  const state = await waitFor(
    `${name} to be ready`,
    async () => (child.exitCode !== null ? 'exited' : (await fetch(`${base}/health/ready`)).ok && 'ready'),
    30_000,
  );
  if (state === 'exited') throw new Error(`${name} exited with ${child.exitCode}; see ${run.logDir}/${name}.log`);
  return { child, base };
}

function startWorker(name: string, extraEnv: Record<string, string> = {}): ChildProcess {
  return run.spawn(name, ['dist/src/worker.js'], baseEnv({ WORKERS: 'on', ...extraEnv }));
}

interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

async function http(base: string, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

async function expectOk(promise: Promise<Reply>, status: number, step: string): Promise<any> {
  const res = await promise;
  if (res.status !== status) throw new Error(`${step}: expected ${status}, got ${res.status}: ${res.text}`);
  return res.body;
}

/** A published agent with an agent API key, through the management API. */
async function seedAgent(base: string): Promise<{ agentId: string; headers: Record<string, string> }> {
  const org = { 'x-organization-api-key': ORG_KEY };
  const project = await expectOk(http(base, 'POST', '/management/v1/projects', { name: 'faults' }, org), 201, 'project');
  const agent = await expectOk(
    http(base, 'POST', `/management/v1/projects/${project.id}/agents`, { name: 'faults', runtime: 'v1' }, org),
    201,
    'agent',
  );
  const version = await expectOk(
    http(base, 'POST', `/management/v1/agents/${agent.id}/versions`, { source: 'template', template: 'shopping-assistant' }, org),
    201,
    'version',
  );
  await expectOk(http(base, 'POST', `/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org), 200, 'publish');
  const key = await expectOk(http(base, 'POST', `/management/v1/agents/${agent.id}/api-keys`, {}, org), 201, 'api key');
  return { agentId: agent.id, headers: { 'x-agent-api-key': key.api_key } };
}

const QUESTIONS = ['show me trail shoes', 'do you have rain jackets', 'anything under $100', 'where is my order', 'show me backpacks'];

/**
 * Posts `perThread` events on each of `threads` caller thread ids: each thread's events one after the other
 * (acceptance order is then unambiguous), threads in parallel. Retries 502/503 as the spec tells callers to.
 * Returns the accepted ids per thread, in acceptance order.
 */
async function postEvents(
  base: string,
  headers: Record<string, string>,
  {
    label,
    threads,
    perThread,
    onAccepted = () => undefined,
  }: { label: string; threads: number; perThread: number; onAccepted?: () => void },
): Promise<Map<string, string[]>> {
  const accepted = new Map<string, string[]>();
  await Promise.all(
    Array.from({ length: threads }, async (_, t) => {
      const threadId = `${label}-${t}`;
      const ids: string[] = [];
      accepted.set(threadId, ids);
      for (let i = 0; i < perThread; i += 1) {
        for (let attempt = 0; ; attempt += 1) {
          const res = await http(
            base,
            'POST',
            '/messaging/v1/events',
            { text: `${QUESTIONS[i % QUESTIONS.length]} #${i}`, thread_id: threadId },
            headers,
          );
          if (res.status === 202) {
            ids.push(res.body.event_id);
            onAccepted();
            break;
          }
          if ((res.status === 502 || res.status === 503) && attempt < 20) {
            await sleep(100);
            continue;
          }
          throw new Error(`event ${threadId}#${i}: ${res.status} ${res.text}`);
        }
      }
    }),
  );
  return accepted;
}

async function countByStatus(db: pg.Pool, ids: string[]): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM events WHERE id = ANY($1) GROUP BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Every event completed, exactly one interaction each, and per thread the turns in acceptance order. */
async function verify(db: pg.Pool, label: string, accepted: Map<string, string[]>): Promise<void> {
  const ids = [...accepted.values()].flat();
  const statuses = await countByStatus(db, ids);
  check(`${label}: all ${ids.length} events completed`, statuses.completed === ids.length, JSON.stringify(statuses));
  const {
    rows: [dup],
  } = await db.query<{ turns: number; events: number }>(
    `SELECT count(*)::int AS turns, count(DISTINCT event_id)::int AS events FROM interactions WHERE event_id = ANY($1)`,
    [ids],
  );
  check(
    `${label}: one turn per event (none twice, none missing)`,
    dup?.turns === ids.length && dup.events === ids.length,
    `${dup?.turns} turns for ${dup?.events} events`,
  );
  let outOfOrder = 0;
  for (const [threadId, eventIds] of accepted) {
    const { rows } = await db.query<{ event_id: string }>(
      `SELECT i.event_id FROM interactions i JOIN threads t ON t.id = i.thread_id WHERE t.external_id = $1 ORDER BY i.seq`,
      [threadId],
    );
    const seen = rows.map((r) => r.event_id.trim());
    if (seen.join(',') !== eventIds.join(',')) outOfOrder += 1;
  }
  check(`${label}: acceptance order kept on every thread`, outOfOrder === 0, `${outOfOrder} of ${accepted.size} threads out of order`);
}

async function waitAllDone(db: pg.Pool, accepted: Map<string, string[]>, timeoutMs: number, label: string): Promise<number> {
  const ids = [...accepted.values()].flat();
  const started = Date.now();
  await waitFor(
    `${label}: ${ids.length} events to finish`,
    async () => {
      const s = await countByStatus(db, ids);
      return (s.queued ?? 0) + (s.processing ?? 0) === 0;
    },
    timeoutMs,
    250,
  );
  return Date.now() - started;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  const db = new pg.Pool({ connectionString: dbUrl(), max: 4 });
  // Dropping the database at the end terminates idle connections; that is expected, not a failure.
  db.on('error', () => undefined);
  const redis = new Redis(REDIS_URL);
  const processes: {
    api?: { child: ChildProcess; base: string };
    apiProxied?: { child: ChildProcess; base: string };
    w1?: ChildProcess;
    w2?: ChildProcess;
  } = {};
  try {
    // Migrate once, then the processes start with MIGRATE_ON_START=false.
    await new Promise<void>((resolve, reject) => {
      const m = spawn(process.execPath, ['dist/src/database/migrate.js'], { env: baseEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
      m.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`))));
    });
    processes.api = await startApi('api', { BOOTSTRAP_ORG_API_KEY: ORG_KEY, BOOTSTRAP_ORG_NAME: 'faults' });
    const api = processes.api;
    const { headers } = await seedAgent(api.base);

    // a) kill -9 of one of two workers in the middle of 1,000 events; the survivor takes its events over.
    processes.w1 = startWorker('worker-1');
    processes.w2 = startWorker('worker-2');
    let acceptedCount = 0;
    let acceptedA = new Map<string, string[]>();
    const ids = () => [...acceptedA.values()].flat();
    const killer = (async () => {
      await waitFor(
        'a: 300 events accepted and some completed, worker-1 running some',
        async () => {
          if (acceptedCount < 300) return false;
          const {
            rows: [r],
          } = await db.query<{ completed: number; held: number }>(
            `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
                    count(*) FILTER (WHERE status = 'processing' AND lease_owner LIKE $1)::int AS held FROM events`,
            [`%:${processes.w1?.pid}:%`],
          );
          return (r?.completed ?? 0) >= 50 && (r?.held ?? 0) > 0;
        },
        90_000,
        20,
      );
      processes.w1?.kill('SIGKILL');
      const killedAt = Date.now();
      // What the dead worker held when it died: processing under its lease. Read a moment later, once the statements
      // it had sent have committed or rolled back (a claim or a completion in flight is all or nothing).
      await sleep(300);
      const { rows: held } = await db.query<{ id: string }>(`SELECT id FROM events WHERE status = 'processing' AND lease_owner LIKE $1`, [
        `%:${processes.w1?.pid}:%`,
      ]);
      console.log(
        `     a: kill -9 worker-1 (pid ${processes.w1?.pid}) with ${acceptedCount} accepted, ${held.length} events under its lease`,
      );
      return { killedAt, held: held.map((r) => r.id) };
    })();
    const t0 = Date.now();
    acceptedA = await postEvents(api.base, headers, {
      label: 'kill',
      threads: 25,
      perThread: 40,
      onAccepted: () => {
        acceptedCount += 1;
      },
    });
    const acceptMs = Date.now() - t0;
    const { killedAt, held } = await killer;
    check('a: worker-1 was killed holding events', held.length > 0, `${held.length} held`);
    // Resume: every event the dead worker held claimed again by the survivor (its lease expired), then completed.
    const resumed = await waitFor(
      'a: the dead worker’s events to be taken over',
      async () => {
        const { rows } = await db.query<{ id: string; taken: Date | null; status: string }>(
          `SELECT id, status, CASE WHEN takeovers > 0 THEN updated_at END AS taken FROM events WHERE id = ANY($1)`,
          [held],
        );
        return rows.every((r) => r.taken !== null || r.status === 'completed') ? rows : undefined;
      },
      60_000,
      100,
    );
    const resumeMs = Date.now() - killedAt;
    const drainMs = await waitAllDone(db, acceptedA, 120_000, 'a');
    console.log(
      `     a: ${ids().length} accepted in ${acceptMs} ms over 25 threads (sequential per thread); the dead worker's ${held.length} events resumed ${resumeMs} ms after the kill (goal < 10 s); drained ${drainMs} ms after the last accept`,
    );
    const {
      rows: [takeover],
    } = await db.query<{ taken_over: number; by_survivor: number; completed: number }>(
      `SELECT count(*) FILTER (WHERE takeovers > 0)::int AS taken_over,
              count(*) FILTER (WHERE lease_owner LIKE $2)::int AS by_survivor,
              count(*) FILTER (WHERE status = 'completed')::int AS completed
         FROM events WHERE id = ANY($1)`,
      [held, `%:${processes.w2?.pid}:%`],
    );
    check(
      'a: every event the dead worker held was taken over through its expired lease by the other worker',
      takeover?.taken_over === held.length && takeover.by_survivor === held.length && takeover.completed === held.length,
      `${JSON.stringify(takeover)} of ${held.length}; ${resumed.length} seen`,
    );
    await verify(db, 'a', acceptedA);

    // b) The Redis keys lost mid-run: the workers' claims read PostgreSQL, the wake-ups are only a shortcut.
    let acceptedB = 0;
    let flushed = 0;
    const flusher = (async () => {
      await waitFor('b: 300 events accepted', async () => acceptedB >= 300, 60_000, 50);
      flushed = await deletePrefixKeys(redis, PREFIX);
      console.log(`     b: deleted ${flushed} Redis keys under ${PREFIX}: with ${acceptedB} accepted`);
    })();
    const acceptedFlush = await postEvents(api.base, headers, {
      label: 'flush',
      threads: 20,
      perThread: 40,
      onAccepted: () => {
        acceptedB += 1;
      },
    });
    await flusher;
    check('b: Redis keys deleted mid-run', flushed > 0, `${flushed} keys`);
    await waitAllDone(db, acceptedFlush, 90_000, 'b');
    await verify(db, 'b', acceptedFlush);

    // c) PostgreSQL unreachable for one API process: its answers are 502/503, nothing is half-accepted.
    const proxy = await startProxy(5432);
    processes.apiProxied = await startApi('api-proxied', { DATABASE_URL: dbUrl(proxy.port), DATABASE_POOL_SIZE: '4' });
    const warm = await http(
      processes.apiProxied.base,
      'POST',
      '/messaging/v1/events',
      { text: 'before the outage', thread_id: 'outage' },
      headers,
    );
    check('c: accepted while PostgreSQL is reachable', warm.status === 202, `${warm.status}`);
    await proxy.kill();
    const answers: Record<string, number> = {};
    let acceptedDuringOutage = 0;
    for (let i = 0; i < 40; i += 1) {
      const res = await http(
        processes.apiProxied.base,
        'POST',
        '/messaging/v1/events',
        { text: `during the outage ${i}`, thread_id: 'outage' },
        headers,
      );
      answers[res.status] = (answers[res.status] ?? 0) + 1;
      if (res.status === 202) acceptedDuringOutage += 1;
      if (res.status === 503 && !res.headers.get('retry-after')) {
        answers['503-without-retry-after'] = (answers['503-without-retry-after'] ?? 0) + 1;
      }
    }
    // Past the credential and agent caches (4 s, 2 s), the key lookup itself cannot reach PostgreSQL: still 502.
    await sleep(4500);
    for (let i = 0; i < 5; i += 1) {
      const res = await http(
        processes.apiProxied.base,
        'POST',
        '/messaging/v1/events',
        { text: `during the outage, cold ${i}`, thread_id: 'outage' },
        headers,
      );
      answers[`${res.status} (cold caches)`] = (answers[`${res.status} (cold caches)`] ?? 0) + 1;
      if (res.status === 202) acceptedDuringOutage += 1;
    }
    const onlyRetryable = Object.keys(answers).every((s) => s.startsWith('502') || s.startsWith('503'));
    check('c: every answer during the outage is 502 or 503', onlyRetryable && acceptedDuringOutage === 0, JSON.stringify(answers));
    const {
      rows: [half],
    } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE text LIKE 'during the outage%'`);
    check('c: nothing from the outage was stored', half?.n === 0, `${half?.n} rows`);
    const warmDone = await waitFor(
      'c: the event accepted before the outage to complete',
      async () => {
        const {
          rows: [r],
        } = await db.query<{ status: string }>(`SELECT status FROM events WHERE id = $1`, [warm.body.event_id]);
        return r?.status === 'completed' ? r : undefined;
      },
      30_000,
    );
    check('c: the event accepted before the outage completed', warmDone.status === 'completed');
  } finally {
    await run.stopAll();
    redis.disconnect();
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const leftovers = new Redis(REDIS_URL);
    await deletePrefixKeys(leftovers, PREFIX).catch(() => undefined);
    leftovers.disconnect();
  }
}

await run.run(main);
