/**
 * Thread retention at scale (issue 20, docs/performance.md "Thread retention"):
 * `npm run bench -- retention-delete [--threads N] [--interactions-per-thread K] [--connections C] [--baseline-seconds S] [--batch B]`
 * (or `npm run -s build && node dist/bench/retention-delete.js …`).
 *
 * 1. A database and Redis prefix of its own; an API process (WORKERS=off) with a published shopping agent.
 * 2. Seeds N threads with K interactions each (a real send's reply and trace copied, so rows have their real size),
 *    all idle for 400 days, with `INSERT … SELECT generate_series` in batches; the project gets a 30-day retention.
 * 3. Baseline: C concurrent clients send new-thread messages to the API for S seconds (no deletion).
 * 4. Deletion: the same send load runs while the real `ThreadDeletionService.runRetention()` (this process, a Nest
 *    application context over the same modules, RETENTION_BATCH_SIZE = B) deletes every expired thread; the load
 *    stops when the run ends. 5. The baseline again (the machine may be shared: two baselines bracket the deletion).
 * Reports threads/s (and interactions/s) deleted, the send rate and p50/p99 with and without the deletion, and checks
 * that usage answers are the same before and after. Stops everything it started and drops its database.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { AppModule } from '../src/app.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { ThreadDeletionService } from '../src/modules/retention/thread-deletion.service.js';
import { freePort } from './lib/processes.js';

const { values } = parseArgs({
  args: process.argv.slice(process.argv[2] === 'retention-delete' ? 3 : 2),
  options: {
    threads: { type: 'string', default: '100000' },
    'interactions-per-thread': { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    'baseline-seconds': { type: 'string', default: '20' },
    batch: { type: 'string', default: '500' },
  },
});
const THREADS = Number(values.threads);
const PER_THREAD = Number(values['interactions-per-thread']);
const CONNECTIONS = Number(values.connections);
const BASELINE_SECONDS = Number(values['baseline-seconds']);
const BATCH = Number(values.batch);
for (const [name, n] of Object.entries({ THREADS, PER_THREAD, CONNECTIONS, BASELINE_SECONDS, BATCH })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
}

const ADMIN_URL = process.env.BENCH_PG_URL
  ? `${process.env.BENCH_PG_URL}/postgres`
  : 'postgres://agent_service:agent_service@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const RUN = `p${process.pid}`;
const DB_NAME = `agent_bench_retention_${RUN}`;
const PREFIX = `bench-retention:${RUN}`;
const ORG_KEY = `oak_bench_retention_${RUN}_0123456789`;
const LOG_DIR = mkdtempSync(path.join(tmpdir(), 'retention-delete-'));
const SEED_BATCH = 20_000;
const children = new Set<ChildProcess>();
const log = (message: string) => process.stderr.write(`[retention-delete] ${new Date().toISOString().slice(11, 19)} ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dbUrl = () => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
};

const serviceEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  NODE_ENV: 'production',
  DATABASE_URL: dbUrl(),
  REDIS_URL,
  REDIS_KEY_PREFIX: PREFIX,
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'bench-retention-secret-0123456789abcdef0123456789',
  RATE_LIMIT_MAX: '0',
  MIGRATE_ON_START: 'false',
  METRICS_PORT: '0',
  RETENTION_BATCH_SIZE: String(BATCH),
  ...extra,
});

function spawnNode(name: string, script: string, vars: Record<string, string>): ChildProcess {
  const out = openSync(path.join(LOG_DIR, `${name}.log`), 'a');
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...vars }, stdio: ['ignore', out, out] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped bench JSON
async function call(base: string, method: string, pathname: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

interface LoadResult {
  sends: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** C clients sending new-thread messages back to back until `stop` resolves. */
async function sendLoad(base: string, token: string, stop: Promise<unknown>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let running = true;
  void stop.finally(() => {
    running = false;
  });
  const started = performance.now();
  const questions = ['show me trail shoes', 'do you have rain jackets under $150', 'what backpacks do you have', 'where is my order'];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      for (let i = 0; running; i += 1) {
        const t0 = performance.now();
        const res = await fetch(`${base}/messaging/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ text: questions[i % questions.length], user_id: `load-${c}` }),
        });
        await res.arrayBuffer();
        if (res.status === 200) latencies.push(performance.now() - t0);
        else errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { sends: latencies.length, errors, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

const describeLoad = (r: LoadResult & { load: number }) =>
  `${(r.sends / r.seconds).toFixed(1)} sends/s over ${r.seconds.toFixed(1)} s (${r.sends} ok, ${r.errors} failed); p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms; machine load average ${r.load.toFixed(1)}`;
/** The send load with the machine's 1-minute load average at its end (the machine is shared: read figures against it). */
const measured = async (run: Promise<LoadResult>) => ({ ...(await run), load: loadavg()[0] ?? 0 });

async function seed(db: pg.Pool, ids: { org: string; project: string; agent: string; template: string }): Promise<void> {
  const started = Date.now();
  for (let from = 1; from <= THREADS; from += SEED_BATCH) {
    const to = Math.min(THREADS, from + SEED_BATCH - 1);
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, title, runtime, version_tag, tools, rules, params,
                              interaction_count, last_item_seq, last_interaction_at, created_at, updated_at)
         SELECT 'b' || lpad(to_hex(g), 23, '0'), $3, $4, $5, 'user-' || (g % 20000), 'Seeded thread ' || g, 'v1', 'v1.0',
                ARRAY['catalog'], ARRAY['budget', 'budget:passed'], '{"budget": 120}'::jsonb, $6, $6 * 2,
                now() - interval '400 days' + make_interval(secs => $6 * 90), now() - interval '400 days', now() - interval '400 days'
           FROM generate_series($1::int, $2::int) g`,
        [from, to, ids.org, ids.project, ids.agent, PER_THREAD],
      );
      await client.query(
        `WITH turns AS (
           INSERT INTO interactions (id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, agent_variables, trace,
                                     runtime, runtime_build, version_id, revision_id, version_tag, input_tokens, output_tokens,
                                     cache_read_tokens, reasoning_tokens, created_at)
           SELECT 'c' || lpad(to_hex(g * 16 + k), 23, '0'), t.organization_id, t.project_id, t.agent_id, 'b' || lpad(to_hex(g), 23, '0'),
                  k, t.source, 'user-' || (g % 20000), t.agent_variables, t.trace, t.runtime, t.runtime_build, t.version_id,
                  t.revision_id, t.version_tag, t.input_tokens, t.output_tokens, t.cache_read_tokens, t.reasoning_tokens,
                  now() - interval '400 days' + make_interval(secs => k * 90)
             FROM generate_series($1::int, $2::int) g CROSS JOIN generate_series(1, $3::int) k
             CROSS JOIN (SELECT * FROM interactions WHERE id = $4) t
           RETURNING id, organization_id, thread_id, seq, user_id, created_at)
         INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
         SELECT (CASE it.kind WHEN 'end_user' THEN 'd' ELSE 'e' END) || substr(turns.id, 2), turns.organization_id, turns.thread_id,
                turns.seq * 2 - (CASE it.kind WHEN 'end_user' THEN 1 ELSE 0 END), turns.id, it.kind,
                CASE it.kind WHEN 'end_user' THEN turns.user_id END, it.text, it.image_url, it.content, turns.created_at
           FROM turns CROSS JOIN (SELECT * FROM thread_items WHERE turn_id = $4) it`,
        [from, to, PER_THREAD, ids.template],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    if (to % 100_000 === 0 || to === THREADS) log(`seeded ${to} threads`);
  }
  await db.query('VACUUM ANALYZE threads');
  await db.query('VACUUM ANALYZE interactions');
  await db.query('VACUUM ANALYZE thread_items');
  log(`seeding took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Usage up to `until` (before any load send): whole days from the roll-up, and a range whose partial first day reads rows. */
async function usage(base: string, org: Record<string, string>, agentId: string, projectId: string, until: string): Promise<string> {
  const from = new Date(Date.now() - 401 * 86_400_000 + 1234).toISOString();
  const answers = [];
  for (const q of [`?created_to=${until}`, `?created_from=${from}&created_to=${until}`]) {
    answers.push(await call(base, 'GET', `/management/v1/agents/${agentId}/usage${q}`, undefined, org));
    answers.push(await call(base, 'GET', `/management/v1/projects/${projectId}/usage${q}`, undefined, org));
  }
  return JSON.stringify(answers);
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  const db = new pg.Pool({ connectionString: dbUrl(), max: 2 });
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const m = spawn(process.execPath, ['dist/src/database/migrate.js'], {
        env: { ...process.env, ...serviceEnv() },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      m.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`))));
    });
    const port = await freePort();
    const api = spawnNode(
      'api',
      'dist/src/main.js',
      serviceEnv({ PORT: String(port), WORKERS: 'off', BOOTSTRAP_ORG_API_KEY: ORG_KEY, BOOTSTRAP_ORG_NAME: 'bench' }),
    );
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i += 1) {
      if (i > 150 || api.exitCode !== null) throw new Error(`the API did not start; see ${LOG_DIR}`);
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break;
      } catch {
        /* not yet */
      }
      await sleep(200);
    }
    const org = { 'x-organization-api-key': ORG_KEY };
    const project = await call(base, 'POST', '/management/v1/projects', { name: 'bench' }, org);
    const agent = await call(base, 'POST', `/management/v1/projects/${project.id}/agents`, { name: 'bench', runtime: 'v1' }, org);
    const version = await call(
      base,
      'POST',
      `/management/v1/agents/${agent.id}/versions`,
      { source: 'template', template: 'shopping-assistant' },
      org,
    );
    await call(base, 'POST', `/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org);
    const pk = (await call(base, 'POST', `/management/v1/agents/${agent.id}/publishable-keys`, {}, org)).publishable_key as string;
    const token = (await call(base, 'POST', '/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: pk }, {}))
      .access_token as string;
    const sent = await call(
      base,
      'POST',
      '/messaging/v1/messages',
      { text: 'show me trail shoes', user_id: 'template' },
      { authorization: `Bearer ${token}` },
    );
    const {
      rows: [template],
    } = await db.query<{ id: string; organization_id: string }>(`SELECT id, organization_id FROM interactions WHERE thread_id = $1`, [
      sent.thread_id,
    ]);

    log(`seeding ${THREADS} expired threads × ${PER_THREAD} interactions`);
    await seed(db, { org: template!.organization_id, project: project.id, agent: agent.id, template: template!.id });
    await call(base, 'PATCH', `/management/v1/projects/${project.id}`, { thread_retention_days: 30 }, org);
    const until = new Date().toISOString();
    await sleep(5);
    const usageBefore = await usage(base, org, agent.id, project.id, until);

    log(`baseline: ${CONNECTIONS} clients × ${BASELINE_SECONDS} s of sends, no deletion`);
    await sendLoad(base, token, sleep(3000)); // warm-up
    const baseline = await measured(sendLoad(base, token, sleep(BASELINE_SECONDS * 1000)));

    app = await NestFactory.createApplicationContext(AppModule.register(loadConfig(serviceEnv({ WORKERS: 'off' }))), { logger: ['error'] });
    const deletion = app.get(ThreadDeletionService);
    log(`deleting with batches of ${BATCH} while the same send load runs`);
    const started = performance.now();
    const run = deletion.runRetention();
    const during = await measured(sendLoad(base, token, run));
    const summary = await run;
    const seconds = (performance.now() - started) / 1000;
    log(`after: ${CONNECTIONS} clients × ${BASELINE_SECONDS} s of sends again, no deletion`);
    const after = await measured(sendLoad(base, token, sleep(BASELINE_SECONDS * 1000)));
    const usageAfter = await usage(base, org, agent.id, project.id, until);
    const {
      rows: [left],
    } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM threads WHERE id LIKE 'b%'`);

    const pgVersion = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    console.log(
      `retention-delete: ${THREADS} expired threads × ${PER_THREAD} interactions, RETENTION_BATCH_SIZE ${BATCH}, ${CONNECTIONS} send clients`,
    );
    console.log(`  machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}; PostgreSQL ${pgVersion}; ${new Date().toISOString()}`);
    console.log(
      `  deleted ${summary.threads} threads, ${summary.interactions} interactions in ${summary.batches} batches, ${seconds.toFixed(1)} s: ` +
        `${(summary.threads / seconds).toFixed(0)} threads/s, ${(summary.interactions / seconds).toFixed(0)} interactions/s; ${left?.n} seeded threads left`,
    );
    console.log(`  sends before, no deletion: ${describeLoad(baseline)}`);
    console.log(`  sends during deletion:     ${describeLoad(during)}`);
    console.log(`  sends after, no deletion:  ${describeLoad(after)}`);
    console.log(
      `  usage answers unchanged: ${usageBefore === usageAfter ? 'yes' : `NO\n    before ${usageBefore}\n    after  ${usageAfter}`}`,
    );
    if (usageBefore !== usageAfter || (left?.n ?? 1) !== 0) process.exitCode = 1;
  } finally {
    await app?.close();
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
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
  }
}

const watchdog = setTimeout(() => {
  for (const child of children) child.kill('SIGKILL');
  process.stderr.write('retention-delete: over 60 minutes, stopping\n');
  process.exit(1);
}, 3_600_000);
watchdog.unref();

// DROP DATABASE … WITH (FORCE) at the end ends any connection still open to it: not an error of the benchmark.
process.on('uncaughtException', (error: Error & { code?: string }) => {
  if (error.code === '57P01') return;
  process.stderr.write(`retention-delete failed: ${error.stack}\n`);
  process.exit(1);
});

try {
  await main();
} catch (error) {
  process.stderr.write(`retention-delete failed: ${error instanceof Error ? error.stack : String(error)}\n(logs in ${LOG_DIR})\n`);
  process.exitCode = 1;
}
// The Nest context and pools may keep handles open a moment: the figures are out, end here.
process.exit(process.exitCode ?? 0);
