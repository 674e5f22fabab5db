/**
 * Bulk seeder for "Threads at scale" (issue 5, docs/performance.md): creates its own database, migrates it, and
 * loads N threads and M interactions into one large organization (`bench/lib/bulk-threads.ts` describes the data)
 * plus a second organization with 10,000 threads of its own (tenant scoping must filter it out). Standalone:
 *
 *   npm run build && node dist/bench/seed-threads.js --threads 1000000 --interactions 3000000 \
 *     --database-url postgres://agent_service:agent_service@127.0.0.1:5432/agent_threads_bench
 *
 * The database named in the URL is dropped and re-created. `--drop` drops it and exits.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config/app-config.js';
import { migrate } from '../src/database/data-source.js';
import { bulkLoad, seedThreads } from './lib/bulk-threads.js';

const { values } = parseArgs({
  options: {
    threads: { type: 'string', default: '1000000' },
    interactions: { type: 'string', default: '3000000' },
    'database-url': { type: 'string', default: 'postgres://agent_service:agent_service@127.0.0.1:5432/agent_threads_bench' },
    batch: { type: 'string', default: '100000' },
    drop: { type: 'boolean', default: false },
  },
});

const THREADS = Number(values.threads);
const INTERACTIONS = Number(values.interactions);
const BATCH = Number(values.batch);
const url = new URL(values['database-url']!);
const database = url.pathname.slice(1);
if (!/^[a-z_][a-z0-9_]*$/.test(database) || !/bench/.test(database)) {
  throw new Error(`refusing to (re)create database "${database}": the name must contain "bench" (it is dropped first)`);
}
if (!Number.isInteger(THREADS) || THREADS < 1 || !Number.isInteger(INTERACTIONS) || INTERACTIONS < 0) {
  throw new Error('--threads must be a positive integer and --interactions a non-negative integer');
}

export const BENCH_ORG_NAME = 'bench-threads';
const log = (message: string) => process.stderr.write(`[seed-threads] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const adminUrl = new URL(url);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
if (values.drop) {
  log(`dropped ${database}`);
  await admin.end();
  process.exit(0);
}
await admin.query(`CREATE DATABASE "${database}"`);
await admin.end();
log(`created ${database}; migrating`);
await migrate(loadConfig({ DATABASE_URL: url.toString(), NODE_ENV: 'development' }));

const db = new pg.Client({ connectionString: url.toString() });
await db.connect();
const started = Date.now();
const BENCH_ORG = (
  await db.query<{ id: string }>(`INSERT INTO organizations (id, name) VALUES (substr(md5('org-bench'), 1, 24), $1) RETURNING id`, [
    BENCH_ORG_NAME,
  ])
).rows[0]!.id;
const OTHER_ORG = (
  await db.query<{ id: string }>(
    `INSERT INTO organizations (id, name) VALUES (substr(md5('org-other'), 1, 24), 'bench-other') RETURNING id`,
  )
).rows[0]!.id;
await bulkLoad(
  db,
  ['threads', 'interactions', 'thread_items'],
  async () => {
    await seedThreads(db, {
      organizationId: BENCH_ORG,
      key: 'bench',
      projects: 20,
      threads: THREADS,
      interactions: INTERACTIONS,
      batch: BATCH,
      log,
    });
    await seedThreads(db, { organizationId: OTHER_ORG, key: 'other', projects: 1, threads: 10_000, interactions: 30_000 });
  },
  log,
);
const { rows: sizes } = await db.query<{ relation: string; size: string }>(
  `SELECT relname AS relation, pg_size_pretty(pg_total_relation_size(c.oid)) AS size
     FROM pg_class c WHERE relname IN ('threads', 'interactions', 'usage_daily') ORDER BY relname`,
);
log(`done in ${Math.round((Date.now() - started) / 1000)} s: ${sizes.map((s) => `${s.relation} ${s.size}`).join(', ')}`);
await db.end();
