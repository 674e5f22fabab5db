/**
 * Bulk thread loading, shared by the standalone seeder (`bench/seed-threads.ts`, "Threads at scale" in
 * docs/performance.md) and the `threads-list` scenario: N threads with realistic facets and M interactions with
 * set-based INSERT ... SELECT generate_series (no row-by-row round trips), each batch's threads and interactions in
 * one statement, into tables whose secondary indexes and foreign keys are rebuilt once at the end (`bulkLoad`).
 *
 * Shape of the data (one large organization, which is the hard case: every list query scopes by organization):
 * - `projects` projects of 10 agents each; every fifth agent runs on runtime v2. Threads go to agents with a skew
 *   (agent k gets a share ∝ the square law), so there are big and small agents.
 * - ~100,000 end users `user-<n>`, skewed (a few heavy users, a long tail); 20% of threads carry an external id.
 * - created_at spread evenly over the 365 days before now; each thread has ⌊M/N⌋ or ⌈M/N⌉ interactions
 *   90 seconds apart.
 * - tools: 12 codes from very common (`catalog`, 45% of threads) to rare (`recalls`, 0.1%).
 * - rules: 6 codes evaluated in 40% … 0.2% of threads; a fired share and a blocked share of the evaluations.
 * - params: budget (40%, 10..999), size (20%), color (25%), category (30%), quantity (10%), tier (5%), coupon (1%).
 */
import type pg from 'pg';

export interface BulkThreads {
  organizationId: string;
  /** Makes the projects' and agents' ids (md5 of key and number): unique per call within one database. */
  key: string;
  projects: number;
  threads: number;
  interactions: number;
  /** Threads per statement. */
  batch?: number;
  log?: (message: string) => void;
}

/** Agents per project. */
const AGENTS_PER_PROJECT = 10;

/**
 * Drops the secondary indexes and the foreign keys of `tables`, runs `load`, then rebuilds them (one sorted build
 * each, instead of maintaining them row by row) and runs VACUUM (ANALYZE) so the planner knows the new data.
 * The primary keys stay (the rows' ids are checked as they come). On failure the definitions are restored too.
 */
export async function bulkLoad(
  db: pg.ClientBase,
  tables: string[],
  load: () => Promise<void>,
  log: (message: string) => void,
): Promise<void> {
  const { rows: constraints } = await db.query<{ relation: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS relation, conname AS name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE conrelid = ANY($1::regclass[]) AND contype IN ('f', 'u')`,
    [tables],
  );
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition
       FROM pg_index WHERE indrelid = ANY($1::regclass[]) AND NOT indisprimary
        AND indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE contype IN ('u', 'x'))`,
    [tables],
  );
  for (const c of constraints) await db.query(`ALTER TABLE ${c.relation} DROP CONSTRAINT ${c.name}`);
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  try {
    await load();
  } finally {
    log(`building ${indexes.length} indexes and ${constraints.length} constraints`);
    await db.query(`SET maintenance_work_mem = '256MB'`);
    for (const i of indexes) await db.query(i.definition);
    for (const c of constraints) await db.query(`ALTER TABLE ${c.relation} ADD CONSTRAINT ${c.name} ${c.definition}`);
    await db.query(`RESET maintenance_work_mem`);
  }
  log('vacuum analyze');
  for (const table of [...tables, 'usage_daily']) await db.query(`VACUUM (ANALYZE) ${table}`);
}

/** Loads one organization's projects, agents, threads and interactions (see the module comment). */
export async function seedThreads(db: pg.ClientBase, spec: BulkThreads): Promise<void> {
  const { organizationId, key, projects, threads, interactions } = spec;
  const batch = spec.batch ?? 100_000;
  const agents = projects * AGENTS_PER_PROJECT;
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET work_mem = '64MB'`);
  await db.query(
    `INSERT INTO projects (id, organization_id, name)
     SELECT substr(md5($2 || 'project' || p), 1, 24), $1, 'Project ' || p FROM generate_series(0, $3::int - 1) p`,
    [organizationId, key, projects],
  );
  await db.query(
    `INSERT INTO agents (id, organization_id, project_id, name, runtime, live_version_tag)
     SELECT substr(md5($2 || 'agent' || a), 1, 24), $1, substr(md5($2 || 'project' || (a / ${AGENTS_PER_PROJECT})), 1, 24),
            'Agent ' || a, CASE WHEN a % 5 = 4 THEN 'v2' ELSE 'v1' END, 'v1.0'
       FROM generate_series(0, $3::int - 1) a`,
    [organizationId, key, agents],
  );
  await db.query(`
    DROP TABLE IF EXISTS pg_temp.bench_agents, pg_temp.bench_tools, pg_temp.bench_rules;
    DROP SEQUENCE IF EXISTS pg_temp.bench_ids;
    CREATE TEMP TABLE bench_agents (idx int PRIMARY KEY, id char(24), project_id char(24), runtime text);
    CREATE TEMP TABLE bench_tools (code text, freq float8);
    INSERT INTO bench_tools VALUES ('catalog', 0.45), ('sizes', 0.2), ('faq', 0.15), ('order_status', 0.1), ('returns', 0.06),
      ('store_locator', 0.04), ('gift_cards', 0.02), ('loyalty', 0.01), ('warranty', 0.005), ('price_match', 0.003),
      ('bulk_order', 0.002), ('recalls', 0.001);
    CREATE TEMP TABLE bench_rules (code text, eval float8, fire float8, block float8);
    INSERT INTO bench_rules VALUES ('over_budget', 0.4, 0.3, 0.15), ('age_check', 0.15, 0.1, 0.1), ('vip', 0.08, 0.5, 0),
      ('stock_check', 0.05, 0.2, 0.05), ('fraud', 0.01, 0.3, 0.3), ('region_block', 0.002, 1, 1);
    CREATE TEMP SEQUENCE bench_ids;
  `);
  await db.query(
    `INSERT INTO bench_agents SELECT idx, id, project_id, runtime FROM agents
       JOIN generate_series(0, $3::int - 1) idx ON id = substr(md5($2 || 'agent' || idx), 1, 24) WHERE organization_id = $1`,
    [organizationId, key, agents],
  );
  let written = 0;
  for (let lo = 1; lo <= threads; lo += batch) {
    const hi = Math.min(threads, lo + batch - 1);
    const result = await db.query(insertBatch(agents), [lo, hi, threads, interactions, organizationId]);
    written += result.rowCount ?? 0;
    spec.log?.(`threads ${hi}/${threads}, interactions ${written}`);
  }
}

/**
 * Threads g in [$1, $2] of $3 (created over the 365 days before now, ⌊$4/$3⌋ or ⌈$4/$3⌉ turns each) of organization
 * $5, and their interactions with their items, in one statement: generated from the thread rows just inserted.
 */
function insertBatch(agents: number): string {
  return `WITH t AS (
    INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                         tools, rules, params, interaction_count, last_interaction_at, last_item_seq, created_at, updated_at)
    SELECT lpad(to_hex(extract(epoch FROM c.created_at)::bigint), 8, '0') || lpad(to_hex(nextval('bench_ids')), 16, '0'),
           $5, ag.project_id, ag.id, c.user_id,
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
           c.turns, c.created_at + c.turns * interval '90 seconds', c.turns * 2, c.created_at, c.created_at + c.turns * interval '90 seconds'
      FROM (SELECT g, now() - interval '365 days' + (g::float8 / $3) * interval '365 days' AS created_at,
                   floor(power(random(), 2) * ${agents})::int AS agent_idx,
                   'user-' || floor(power(random(), 1.5) * 100000)::int AS user_id,
                   random() AS r_ext,
                   ($4::int / $3::int) + CASE WHEN g <= $4::int % $3::int THEN 1 ELSE 0 END AS turns
              FROM generate_series($1::int, $2::int) g) c
      JOIN bench_agents ag ON ag.idx = c.agent_idx
    RETURNING id, organization_id, project_id, agent_id, user_id, runtime, version_tag, interaction_count, created_at),
  x AS (SELECT t.*, s, t.created_at + s * interval '90 seconds' AS at, nextval('bench_ids') AS n
          FROM t CROSS JOIN LATERAL generate_series(1, t.interaction_count) s),
  items AS (
    INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
    SELECT lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4 + 1), 16, '0'), x.organization_id, x.id,
           x.s * 2 - 1, lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4), 16, '0'), 'end_user', x.user_id,
           'Question ' || x.s, NULL, NULL::json, x.at
      FROM x
    UNION ALL
    SELECT lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4 + 2), 16, '0'), x.organization_id, x.id,
           x.s * 2, lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4), 16, '0'), 'agent', NULL,
           'Answer ' || x.s, NULL, '{"cards": [], "followup_suggestions": [], "url": "", "welcome_message": ""}'::json, x.at
      FROM x)
  INSERT INTO interactions (id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, agent_variables, trace, runtime,
                            runtime_build, version_id, revision_id, version_tag, input_tokens, output_tokens, cache_read_tokens,
                            reasoning_tokens, created_at)
  SELECT lpad(to_hex(extract(epoch FROM x.at)::bigint), 8, '0') || lpad(to_hex(x.n * 4), 16, '0'),
         x.organization_id, x.project_id, x.agent_id, x.id, x.s, 'api', x.user_id, '{}',
         jsonb_build_object('runtime', x.runtime, 'input', jsonb_build_object('message', 'Question ' || x.s),
                            'response', jsonb_build_object('type', 'answer', 'message', 'Answer ' || x.s)),
         x.runtime, CASE WHEN x.runtime = 'v1' THEN '1.0.0' ELSE '2.1.0' END,
         substr(md5(x.agent_id), 1, 24), substr(md5(x.agent_id), 1, 24), x.version_tag,
         200 + floor(random() * 1000)::int, 50 + floor(random() * 350)::int,
         CASE WHEN random() < 0.3 THEN floor(random() * 500)::int ELSE 0 END,
         CASE WHEN x.runtime = 'v2' THEN floor(random() * 200)::int ELSE 0 END,
         x.at
    FROM x`;
}
