/**
 * Bulk seeder for "Threads at scale" (issue 5, docs/performance.md): creates its own database, migrates it, and
 * loads N threads with realistic facets and M interactions with INSERT ... SELECT generate_series (no row-by-row
 * round trips). Standalone:
 *
 *   npm run build && node dist/bench/seed-threads.js --threads 1000000 --interactions 3000000 \
 *     --database-url postgres://agent_service:agent_service@127.0.0.1:5432/agent_threads_bench
 *
 * The database named in the URL is dropped and re-created. `--drop` drops it and exits.
 *
 * Shape of the data (one large organization, which is the hard case: every list query scopes by organization):
 * - 20 projects of 10 agents each; every fifth agent runs on runtime v2. Threads go to agents with a skew
 *   (agent k gets a share ∝ the square law), so there are big and small agents.
 * - ~100,000 end users, skewed (a few heavy users, a long tail); 20% of threads carry an external id.
 * - created_at spread evenly over the 365 days before now; each thread has ⌊M/N⌋ or ⌈M/N⌉ interactions
 *   90 seconds apart.
 * - tools: 12 codes from very common (`catalog`, 45% of threads) to rare (`recalls`, 0.1%).
 * - rules: 6 codes evaluated in 40% … 0.2% of threads; a fired share and a blocked share of the evaluations.
 * - params: budget (40%, 10..999), size (20%), color (25%), category (30%), quantity (10%), tier (5%), coupon (1%).
 * - a second organization with 10,000 threads of its own (tenant scoping must filter it out).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config/app-config.js';
import { migrate } from '../src/database/data-source.js';

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

/** Deterministic 24-hex ids for the fixed rows, so the query script can find them again. */
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
await db.query(`SET synchronous_commit = off`);
await db.query(`SET work_mem = '64MB'`);

await db.query(
  `INSERT INTO organizations (id, name) VALUES (substr(md5('org-bench'), 1, 24), $1), (substr(md5('org-other'), 1, 24), 'bench-other')`,
  [BENCH_ORG_NAME],
);
await db.query(`
  INSERT INTO projects (id, organization_id, name)
  SELECT substr(md5('project' || p), 1, 24), substr(md5('org-bench'), 1, 24), 'Project ' || p FROM generate_series(0, 19) p;
  INSERT INTO projects (id, organization_id, name) VALUES (substr(md5('project-other'), 1, 24), substr(md5('org-other'), 1, 24), 'Other');
  INSERT INTO agents (id, organization_id, project_id, name, runtime, live_version_tag)
  SELECT substr(md5('agent' || a), 1, 24), substr(md5('org-bench'), 1, 24), substr(md5('project' || (a / 10)), 1, 24),
         'Agent ' || a, CASE WHEN a % 5 = 4 THEN 'v2' ELSE 'v1' END, 'v1.0'
    FROM generate_series(0, 199) a;
  INSERT INTO agents (id, organization_id, project_id, name, runtime)
  VALUES (substr(md5('agent-other'), 1, 24), substr(md5('org-other'), 1, 24), substr(md5('project-other'), 1, 24), 'Other agent', 'v1');

  CREATE TEMP TABLE bench_agents AS
    SELECT a AS idx, substr(md5('agent' || a), 1, 24)::char(24) AS id, substr(md5('project' || (a / 10)), 1, 24)::char(24) AS project_id,
           CASE WHEN a % 5 = 4 THEN 'v2' ELSE 'v1' END AS runtime
      FROM generate_series(0, 199) a;
  CREATE UNIQUE INDEX ON bench_agents (idx);
  CREATE TEMP TABLE bench_tools (code text, freq float8);
  INSERT INTO bench_tools VALUES ('catalog', 0.45), ('sizes', 0.2), ('faq', 0.15), ('order_status', 0.1), ('returns', 0.06),
    ('store_locator', 0.04), ('gift_cards', 0.02), ('loyalty', 0.01), ('warranty', 0.005), ('price_match', 0.003),
    ('bulk_order', 0.002), ('recalls', 0.001);
  CREATE TEMP TABLE bench_rules (code text, eval float8, fire float8, block float8);
  INSERT INTO bench_rules VALUES ('over_budget', 0.4, 0.3, 0.15), ('age_check', 0.15, 0.1, 0.1), ('vip', 0.08, 0.5, 0),
    ('stock_check', 0.05, 0.2, 0.05), ('fraud', 0.01, 0.3, 0.3), ('region_block', 0.002, 1, 1);
  CREATE TEMP SEQUENCE bench_ids;
`);

/** Threads g in [lo, hi] of `total`, over the 365 days before `now`. */
async function insertThreads(
  organization: string,
  agents: string,
  lo: number,
  hi: number,
  total: number,
  interactions: number,
): Promise<void> {
  await db.query(
    `INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                          tools, rules, params, interaction_count, last_interaction_at, created_at, updated_at)
     SELECT lpad(to_hex(extract(epoch FROM c.created_at)::bigint), 8, '0') || lpad(to_hex(nextval('bench_ids')), 16, '0'),
            ${organization}, ag.project_id, ag.id, c.user_id,
            CASE WHEN c.r_ext < 0.2 THEN 'ext-' || c.g END,
            'Conversation ' || c.g, ag.runtime, 'v' || (1 + c.g % 5) || '.' || (c.g % 3),
            ARRAY(SELECT bt.code FROM bench_tools bt WHERE random() < bt.freq AND c.g IS NOT NULL),
            ARRAY(SELECT e FROM bench_rules br
                    CROSS JOIN LATERAL (SELECT random() AS x, random() AS y WHERE c.g IS NOT NULL AND br.code IS NOT NULL) rr
                    CROSS JOIN LATERAL unnest(CASE
                      WHEN rr.x >= br.eval THEN ARRAY[]::text[]
                      WHEN rr.y < br.block THEN ARRAY[br.code, br.code || ':fired', br.code || ':blocked']
                      WHEN rr.y < br.fire THEN ARRAY[br.code, br.code || ':fired']
                      ELSE ARRAY[br.code, br.code || ':passed'] END) e),
            jsonb_strip_nulls(jsonb_build_object(
              'budget', CASE WHEN random() < 0.4 THEN 10 + floor(random() * 990)::int END,
              'size', CASE WHEN random() < 0.2 THEN 36 + floor(random() * 12)::int END,
              'color', CASE WHEN random() < 0.25 THEN (ARRAY['black','blue','red','green','white','grey','navy','orange'])[1 + floor(random() * 8)::int] END,
              'category', CASE WHEN random() < 0.3 THEN (ARRAY['shoes','jackets','pants','bags','hats','socks'])[1 + floor(random() * 6)::int] END,
              'quantity', CASE WHEN random() < 0.1 THEN 1 + floor(random() * 10)::int END,
              'tier', CASE WHEN random() < 0.05 THEN (ARRAY['gold','silver'])[1 + floor(random() * 2)::int] END,
              'coupon', CASE WHEN random() < 0.01 THEN 'SAVE' || floor(random() * 50)::int END)),
            c.turns, c.created_at + c.turns * interval '90 seconds', c.created_at, c.created_at + c.turns * interval '90 seconds'
       FROM (SELECT g, now() - interval '365 days' + (g::float8 / $3) * interval '365 days' AS created_at,
                    ${agents} AS agent_idx,
                    'user-' || floor(power(random(), 1.5) * 100000)::int AS user_id,
                    random() AS r_ext,
                    ($4::int / $3::int) + CASE WHEN g <= $4::int % $3::int THEN 1 ELSE 0 END AS turns
               FROM generate_series($1::int, $2::int) g) c
       JOIN bench_agents ag ON ag.idx = c.agent_idx`,
    [lo, hi, total, interactions],
  );
}

/** The interactions of the threads created in [from, to): `interaction_count` turns each, 90 s apart. */
async function insertInteractions(organization: string, from: Date, to: Date): Promise<number> {
  const result = await db.query(
    `INSERT INTO interactions (id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, user_message_id, user_text,
                               image_url, agent_variables, reply_message_id, reply_text, reply, trace, runtime, runtime_build,
                               version_id, revision_id, version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at)
     SELECT lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4), 16, '0'),
            x.organization_id, x.project_id, x.agent_id, x.id, x.s, 'api', x.user_id,
            lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4 + 1), 16, '0'), 'Question ' || x.s,
            NULL, '{}', lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4 + 2), 16, '0'), 'Answer ' || x.s,
            '{"cards": [], "followup_suggestions": [], "url": "", "welcome_message": ""}',
            jsonb_build_object('runtime', x.runtime, 'input', jsonb_build_object('message', 'Question ' || x.s),
                               'response', jsonb_build_object('type', 'answer', 'message', 'Answer ' || x.s)),
            x.runtime, CASE WHEN x.runtime = 'v1' THEN '1.0.0' ELSE '2.1.0' END,
            substr(md5(x.agent_id), 1, 24), substr(md5(x.agent_id), 1, 24), x.version_tag,
            200 + floor(random() * 1000)::int, 50 + floor(random() * 350)::int,
            CASE WHEN random() < 0.3 THEN floor(random() * 500)::int ELSE 0 END,
            CASE WHEN x.runtime = 'v2' THEN floor(random() * 200)::int ELSE 0 END,
            x.at
       FROM (SELECT t.*, s, t.created_at + s * interval '90 seconds' AS at, nextval('bench_ids') AS n
               FROM threads t CROSS JOIN LATERAL generate_series(1, t.interaction_count) s
              WHERE t.organization_id = ${organization} AND t.created_at >= $1 AND t.created_at < $2) x`,
    [from, to],
  );
  return result.rowCount ?? 0;
}

const BENCH_ORG = `substr(md5('org-bench'), 1, 24)`;
const OTHER_ORG = `substr(md5('org-other'), 1, 24)`;
const SKEWED_AGENT = `floor(power(random(), 2) * 200)::int`;
let interactionsWritten = 0;
for (let lo = 1; lo <= THREADS; lo += BATCH) {
  const hi = Math.min(THREADS, lo + BATCH - 1);
  const { rows } = await db.query<{ start: Date; end: Date }>(
    `SELECT now() - interval '365 days' + ($1::float8 / $3) * interval '365 days' AS start,
            now() - interval '365 days' + ($2::float8 / $3) * interval '365 days' AS end`,
    [lo, hi + 1, THREADS],
  );
  await db.query('BEGIN');
  await insertThreads(BENCH_ORG, SKEWED_AGENT, lo, hi, THREADS, INTERACTIONS);
  interactionsWritten += await insertInteractions(BENCH_ORG, rows[0]!.start, rows[0]!.end);
  await db.query('COMMIT');
  log(`threads ${hi}/${THREADS}, interactions ${interactionsWritten}`);
}
// The other tenant: its own agent, 10,000 threads.
await db.query(
  `UPDATE bench_agents SET id = substr(md5('agent-other'), 1, 24), project_id = substr(md5('project-other'), 1, 24), runtime = 'v1' WHERE idx = 0`,
);
await insertThreads(OTHER_ORG, '0', 1, 10_000, 10_000, 30_000);
await insertInteractions(OTHER_ORG, new Date(0), new Date(Date.now() + 86_400_000));
log('vacuum analyze');
await db.query('VACUUM (ANALYZE) threads');
await db.query('VACUUM (ANALYZE) interactions');
await db.query('VACUUM (ANALYZE) usage_daily');
const { rows: sizes } = await db.query<{ relation: string; size: string }>(
  `SELECT relname AS relation, pg_size_pretty(pg_total_relation_size(c.oid)) AS size
     FROM pg_class c WHERE relname IN ('threads', 'interactions', 'usage_daily') ORDER BY relname`,
);
log(`done in ${Math.round((Date.now() - started) / 1000)} s: ${sizes.map((s) => `${s.relation} ${s.size}`).join(', ')}`);
await db.end();
