/**
 * Everything a benchmark invocation stands up and tears down: services, its own database, the built service in
 * production mode, the baseline server, an organization, and the context scenarios seed through.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { BenchContext, HttpMethod, JsonResponse, OrgCredentials } from '../scenario.js';
import { ACCEPT_BASELINE_ID_PREFIX, SAME_WORK_APPLICATION } from './same-work.js';
import {
  BENCH_DATABASE,
  type Cleanup,
  freePort,
  recordChild,
  runCommand,
  spawnNode,
  type Spawned,
  stopOrphans,
  stopProcess,
  waitForHttp,
} from './processes.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://agent_service:agent_service@127.0.0.1:5432';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

export interface Environment {
  ctx: BenchContext;
  service: Spawned;
  /** The bare Fastify server (`health` baseline). */
  baseline: Spawned;
  baselineUrl: string;
  /** The same-work baselines (turn, accept, list): bare Fastify + pg on the same database. */
  sameWork: Spawned;
  sameWorkUrl: string;
  /** The service's Prometheus listener (`GET /metrics`). */
  metricsUrl: string;
  workDir: string;
  /** PIDs of the PostgreSQL backends serving the service, or the same-work server (their CPU is reported as "db CPU"). */
  databaseBackendPids(of?: 'service' | 'same-work'): Promise<number[]>;
  /** After a same-work run: deletes the baseline's event rows and its Redis list, so the next run starts alike. */
  resetSameWork(): Promise<void>;
  /** Whether the PostgreSQL server runs autovacuum (some CI images turn it off; production servers keep it on). */
  autovacuum: boolean;
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** `SHOW autovacuum` of the server: with it off, every figure of a table that churns measures dead rows piling up. */
async function serverRunsAutovacuum(): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    return rows[0]?.autovacuum === 'on';
  } finally {
    await client.end();
  }
}

export async function ensureServices(): Promise<void> {
  log('ensuring PostgreSQL and Redis (scripts/services.sh)');
  await runCommand('bash', [join(ROOT, 'scripts/services.sh')]);
}

// Any constant: the same in every benchmark invocation on this PostgreSQL server (with the database's name as the second key).
const BENCH_LOCK_CLASS = 724_011;

/**
 * One invocation at a time per benchmark database, `agent_bench` or `BENCH_DATABASE` (and two loads on the same
 * cores would spoil each other's figures anyway). Session-level advisory lock, released when the runner's
 * connection closes — also if the runner is killed.
 */
async function acquireBenchLock(cleanup: Cleanup): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG_BASE}/postgres`, application_name: 'agent-bench-lock' });
  await client.connect();
  cleanup.add('release the benchmark lock', () => client.end());
  let announced = false;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
      BENCH_LOCK_CLASS,
      BENCH_DATABASE,
    ]);
    if (rows[0]?.locked) return;
    if (!announced) {
      log('another benchmark invocation is running on this machine: waiting for it to finish (Ctrl-C to give up)');
      announced = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function recreateDatabase(cleanup: Cleanup): Promise<void> {
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
  cleanup.add(`drop database ${BENCH_DATABASE}`, async () => {
    const client = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
}

async function deleteRedisKeys(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    for (const pattern of [`${prefix}:*`, prefix]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) deleted += await redis.unlink(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Number of jobs waiting, active or delayed in every Bull queue under `prefix` (repeatable schedules aside). */
export async function pendingQueueJobs(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let total = 0;
    for (const suffix of ['wait', 'active', 'delayed', 'paused']) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*:${suffix}`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const type = await redis.type(key);
          if (type === 'list') total += await redis.llen(key);
          // A repeatable job (the retention sweep) always has its next run delayed: it is a schedule, not work left.
          else if (type === 'zset') total += (await redis.zrange(key, 0, -1)).filter((id) => !id.startsWith('repeat:')).length;
        }
      } while (cursor !== '0');
    }
    return total;
  } finally {
    redis.disconnect();
  }
}

/** Events accepted and not finished yet (`queued` or `processing`): the events are their table, not a Bull queue. */
export async function pendingEvents(ctx: BenchContext): Promise<number> {
  const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE status IN ('queued', 'processing')`);
  return rows[0]?.n ?? 0;
}

/**
 * Pauses (`true`) or resumes the service's events processing: the Redis key its workers read at most once a second
 * before claiming (docs/events.md "Pause"). Pausing waits that second, so no claim is under way once it returns;
 * resuming also publishes a wake-up. Accepts go on either way, e.g. so a measured run does only what its
 * same-work baseline does.
 */
export async function setEventsPaused(ctx: BenchContext, paused: boolean): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    if (paused) await redis.set(`${ctx.redisPrefix}:events:paused`, '1');
    else {
      await redis.del(`${ctx.redisPrefix}:events:paused`);
      await redis.publish(`${ctx.redisPrefix}:events:due`, '');
    }
  } finally {
    redis.disconnect();
  }
  if (paused) await new Promise((resolve) => setTimeout(resolve, 1100));
}

/**
 * Waits until no Bull job (repeatable schedules aside) is waiting or active under the service's prefix and no event
 * is pending (at most `timeoutMs`); returns what is left.
 */
export async function drainQueues(ctx: BenchContext, label: string, timeoutMs = 180_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const left = async () => (await pendingQueueJobs(ctx.redisPrefix)) + (await pendingEvents(ctx));
  let pending = await left();
  if (pending > 0) ctx.log(`${label}: waiting for ${pending} queued jobs and events to drain`);
  while (pending > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    pending = await left();
  }
  if (pending > 0) ctx.log(`${label}: ${pending} jobs and events still pending after ${timeoutMs / 1000} s; continuing`);
  return pending;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * `tuned` (the default of the harness): rate limiting off (`RATE_LIMIT_MAX=0`), and `events-ingest` keeps the in-process
 * workers paused while it measures accepts. `default`: the service's own defaults for both — every request counts its
 * rate-limit window in Redis (with a limit no run reaches, so nothing is refused) and the in-process workers process
 * events while accepts are measured; the same-work baselines count the same window with the service's limiter.
 */
export type BenchConfiguration = 'tuned' | 'default';

/** A limit per window the benchmark never reaches: the window is counted on every request, none is refused. */
const UNREACHED_RATE_LIMIT = '1000000000';

export interface EnvironmentOptions {
  connections: number;
  /** Default `tuned`. */
  configuration?: BenchConfiguration;
  /** Directory for V8 CPU profiles of the service (`--cpu-prof`), written when it stops. */
  profileDir?: string;
  /** More variables for the service (e.g. `OPENAI_BASE_URL` of a local fake provider). */
  serviceEnv?: Record<string, string>;
}

export async function startEnvironment(cleanup: Cleanup, options: EnvironmentOptions): Promise<Environment> {
  const { connections } = options;
  const workDir = mkdtempSync(join(tmpdir(), 'agent-bench-'));
  log(`work directory (logs): ${workDir}`);

  await ensureServices();
  await acquireBenchLock(cleanup);
  const orphans = stopOrphans();
  if (orphans.length > 0) log(`stopped processes left by an earlier invocation that was killed: ${orphans.join(', ')}`);
  await recreateDatabase(cleanup);
  const autovacuum = await serverRunsAutovacuum();
  if (!autovacuum) {
    log(
      'WARNING: autovacuum is off on this PostgreSQL server: tables that churn (events, threads) keep their dead rows, so ' +
        'the event drain and the thread writes slow down as a run goes on; a production server keeps it on ' +
        '(ALTER SYSTEM SET autovacuum = on; SELECT pg_reload_conf())',
    );
  }
  const databaseUrl = `${PG_BASE}/${BENCH_DATABASE}`;
  const redisPrefix = `bench:${process.pid}`;
  cleanup.add(`delete Redis keys ${redisPrefix}:*`, async () => {
    const deleted = await deleteRedisKeys(redisPrefix);
    log(`deleted ${deleted} Redis keys under ${redisPrefix}`);
  });

  // The model agent-mode scenarios talk to: an instantly answering OpenAI-compatible server (its CPU is not the service's).
  const modelPort = await freePort();
  const model = spawnNode(
    join(ROOT, 'dist/bench/fake-model-server.js'),
    [String(modelPort)],
    cleanEnv({ NODE_ENV: 'production' }),
    join(workDir, 'model.log'),
  );
  recordChild(model.pid);
  cleanup.add('stop the fake model server', () => stopProcess(model));
  await waitForHttp(`http://127.0.0.1:${modelPort}/v1/health`, model);

  const port = await freePort();
  const metricsPort = await freePort();
  const serviceEnv = cleanEnv({
    OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    OPENAI_API_KEY: 'bench',
    NODE_ENV: 'production',
    // 48 characters of [A-Za-z0-9_-]: a fresh secret per invocation, never reused.
    JWT_SECRET: randomBytes(36).toString('base64url'),
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    RATE_LIMIT_MAX: options.configuration === 'default' ? UNREACHED_RATE_LIMIT : '0',
    // ws-sessions holds 10,000 sessions of one publishable key: it measures memory per session, not the per-credential cap.
    SESSION_MAX_PER_CREDENTIAL: '100000',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: String(metricsPort),
    MIGRATE_ON_START: 'true',
    ...options.serviceEnv,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  log(`starting the service (node dist/src/main.js, production) on ${baseUrl}`);
  const nodeArgs = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  const service = spawnNode(join(ROOT, 'dist/src/main.js'), [], serviceEnv, join(workDir, 'service.log'), nodeArgs);
  recordChild(service.pid);
  cleanup.add('stop the service', () => stopProcess(service));
  await waitForHttp(`${baseUrl}/health/ready`, service);

  const baselinePort = await freePort();
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  const baseline = spawnNode(
    join(ROOT, 'dist/bench/baseline-server.js'),
    [String(baselinePort)],
    cleanEnv({ NODE_ENV: 'production' }),
    join(workDir, 'baseline.log'),
  );
  recordChild(baseline.pid);
  cleanup.add('stop the baseline server', () => stopProcess(baseline));
  await waitForHttp(`${baselineUrl}/health`, baseline);

  // After the service: its migrations have made the schema the same-work server reads and writes.
  const sameWorkPort = await freePort();
  const sameWorkUrl = `http://127.0.0.1:${sameWorkPort}`;
  const sameWork = spawnNode(
    join(ROOT, 'dist/bench/same-work-server.js'),
    [String(sameWorkPort)],
    cleanEnv({
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      JWT_SECRET: serviceEnv.JWT_SECRET!,
      RATE_LIMIT_MAX: serviceEnv.RATE_LIMIT_MAX!,
    }),
    join(workDir, 'same-work.log'),
  );
  recordChild(sameWork.pid);
  cleanup.add('stop the same-work server', () => stopProcess(sameWork));
  await waitForHttp(`${sameWorkUrl}/health`, sameWork);

  const createOrganization = async (name: string): Promise<OrgCredentials> => {
    log(`creating the organization ${name} (node dist/src/cli.js org:create)`);
    const created = JSON.parse(
      await runCommand(process.execPath, [join(ROOT, 'dist/src/cli.js'), 'org:create', '--name', name], serviceEnv),
    ) as { organization_id: string; api_key: string };
    return { organizationId: created.organization_id, apiKey: created.api_key, headers: { 'x-organization-api-key': created.api_key } };
  };
  const org = await createOrganization('bench');

  const db = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: 'agent-bench-seed' });
  cleanup.add('close the seeding pool', () => db.end());

  let openApi: Promise<Set<string>> | undefined;
  const routes = () =>
    (openApi ??= fetch(`${baseUrl}/openapi.json`).then(async (response) => {
      if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
      const document = (await response.json()) as { paths?: Record<string, Record<string, unknown>> };
      const set = new Set<string>();
      for (const [path, operations] of Object.entries(document.paths ?? {})) {
        for (const method of Object.keys(operations)) set.add(`${method.toUpperCase()} ${path}`);
      }
      return set;
    }));

  const ctx: BenchContext = {
    baseUrl,
    db,
    org,
    createOrganization,
    connections,
    configuration: options.configuration ?? 'tuned',
    serviceEnv,
    redisPrefix,
    log,
    hasRoute: async (method: HttpMethod, path: string) => (await routes()).has(`${method} ${path}`),
    request: async <T>(
      method: HttpMethod,
      path: string,
      options: { headers?: Record<string, string>; body?: unknown; expect?: number[] } = {},
    ): Promise<JsonResponse<T>> => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(baseUrl + path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the text
      }
      const ok = options.expect ? options.expect.includes(response.status) : response.status >= 200 && response.status < 300;
      if (!ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
      return { status: response.status, body: parsed as T, headers: response.headers };
    },
  };

  const databaseBackendPids = async (of: 'service' | 'same-work' = 'service'): Promise<number[]> => {
    const result = await db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          AND CASE WHEN $2 THEN application_name = $3 ELSE application_name NOT IN ('agent-bench-seed', $3) END`,
      [BENCH_DATABASE, of === 'same-work', SAME_WORK_APPLICATION],
    );
    return result.rows.map((r) => r.pid);
  };

  const resetSameWork = async (): Promise<void> => {
    await db.query(`DELETE FROM events WHERE id LIKE $1`, [`${ACCEPT_BASELINE_ID_PREFIX}%`]);
  };

  return {
    ctx,
    service,
    baseline,
    baselineUrl,
    sameWork,
    sameWorkUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    workDir,
    databaseBackendPids,
    resetSameWork,
    autovacuum,
  };
}
