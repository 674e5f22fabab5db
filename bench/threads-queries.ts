/**
 * Measures the thread list and usage reads over the database `bench/seed-threads.ts` loaded ("Threads at scale"
 * in docs/performance.md): every single filter and several three-filter combinations through the real HTTP route
 * (the built service in this process, listening on a loopback port; requests one at a time), then the
 * EXPLAIN (ANALYZE, BUFFERS) plan of the SQL each request runs.
 *
 *   npm run build && node dist/bench/threads-queries.js --runs 200 \
 *     --database-url postgres://agent_service:agent_service@127.0.0.1:5432/agent_threads_bench [--out FILE] [--drop]
 *
 * `--drop` drops the database afterwards.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApp } from '../src/app.setup.js';
import { loadConfig } from '../src/config/app-config.js';
import { newId } from '../src/common/ids/new-id.js';
import { generateSecret, hashSecret, secretPrefix } from '../src/modules/auth/secrets.js';
import type { ListThreadsQueryDto } from '../src/modules/threads/dto/thread-query.dto.js';
import { SqlParams } from '../src/database/sql-params.js';
import { rareFacetDriven, threadFilterConditions, type FacetFrequency } from '../src/modules/conversations/thread-filters.js';
import { parseUsageRange, planUsage } from '../src/modules/usage/usage-range.js';
import { ConversationsRepository } from '../src/modules/conversations/conversations.repository.js';
import type { SqlService } from '../src/database/sql.service.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string', default: 'postgres://agent_service:agent_service@127.0.0.1:5432/agent_threads_bench' },
    runs: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/results/threads-queries.md' },
    drop: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const WARMUP = Number(values.warmup);
const databaseUrl = values['database-url']!;
const log = (message: string) => process.stderr.write(`[threads-queries] ${message}\n`);

type Query = Record<string, string | string[]>;
interface Case {
  name: string;
  path: string;
  query: Query;
  /** The SQL the route runs for it (for EXPLAIN), with its values. */
  sql: () => { text: string; values: unknown[] };
}

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const org = (await db.query<{ id: string }>(`SELECT id FROM organizations WHERE name = 'bench-threads'`)).rows[0];
if (!org) throw new Error('no bench-threads organization: run dist/bench/seed-threads.js first');
const apiKey = generateSecret('oak');
await db.query(`INSERT INTO organization_api_keys (id, organization_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4)`, [
  newId(),
  org.id,
  hashSecret(apiKey),
  secretPrefix(apiKey),
]);

// Realistic values, read from the data: a big and a mid-size v1 agent, a v2 agent, a project, a user, an external id.
const one = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows[0]!;
const agents = (
  await db.query<{ agent_id: string; project_id: string; runtime: string; n: string }>(
    `SELECT agent_id, project_id, runtime, count(*) AS n FROM threads WHERE organization_id = $1 GROUP BY 1, 2, 3 ORDER BY n DESC`,
    [org.id],
  )
).rows;
const v1Agents = agents.filter((a) => a.runtime === 'v1');
const bigAgent = v1Agents[0]!;
const midAgent = v1Agents[Math.floor(v1Agents.length / 2)]!;
const smallAgent = v1Agents[v1Agents.length - 1]!;
const v2Agent = agents.find((a) => a.runtime === 'v2')!;
// A user of median activity: the end user of a thread from the middle of the year.
const user = await one<{ user_id: string }>(
  `SELECT user_id FROM threads WHERE organization_id = $1 AND runtime = 'v1' ORDER BY created_at DESC OFFSET $2 LIMIT 1`,
  [org.id, Math.floor(Number(bigAgent.n) / 10)],
);
const external = await one<{ external_id: string }>(
  `SELECT external_id FROM threads WHERE organization_id = $1 AND runtime = 'v1' AND external_id IS NOT NULL ORDER BY created_at DESC OFFSET $2 LIMIT 1`,
  [org.id, Math.floor(Number(bigAgent.n) / 20)],
);
const daysAgo = (days: number, hour = 0) =>
  new Date(Math.floor(Date.now() / 86_400_000 - days) * 86_400_000 + hour * 3_600_000 + 123).toISOString();

// The facet frequencies the service reads (ThreadsRepository.facetFrequency), for the same SQL as the route.
const shares = new Map<string, number>();
for (const row of (
  await db.query<{ attname: string; elems: string[] | null; freqs: number[] | null }>(
    `SELECT attname, most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
     FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'threads' AND attname IN ('tools', 'rules')`,
  )
).rows) {
  (row.elems ?? []).forEach((elem, i) => shares.set(`${row.attname}:${elem}`, row.freqs?.[i] ?? 0));
}

const listSql = (query: Query) => () => {
  const params = new SqlParams();
  const frequency: FacetFrequency = (column, value) => shares.get(`${column}:${value}`) ?? 0;
  const where = threadFilterConditions(org.id, query as unknown as ListThreadsQueryDto, params, frequency);
  const sortKey = rareFacetDriven(query as unknown as ListThreadsQueryDto, frequency)
    ? `(t.created_at + interval '0 seconds')`
    : 't.created_at';
  return {
    text: `SELECT t.id, t.title, t.created_at, t.version_tag, t.agent_id, t.user_id, t.external_id FROM threads t WHERE ${where.join(' AND ')}
           ORDER BY ${sortKey} DESC, t.id DESC LIMIT 51`,
    values: params.values,
  };
};
const list = (name: string, query: Query): Case => ({ name, path: '/management/v1/threads', query, sql: listSql(query) });

const usageSql = (scope: 'agent_id' | 'project_id', id: string, from?: string, to?: string) => () => {
  let captured = { text: '', values: [] as unknown[] };
  const fake = {
    one: async (text: string, params: unknown[]) => {
      captured = { text, values: params };
      return undefined;
    },
  } as unknown as SqlService;
  void new ConversationsRepository(fake).usage(scope, id, planUsage(parseUsageRange(from, to)));
  return captured;
};
const usage = (name: string, scope: 'agent_id' | 'project_id', id: string, from?: string, to?: string): Case => {
  const query: Query = {};
  if (from) query.created_from = from;
  if (to) query.created_to = to;
  return {
    name,
    path: scope === 'agent_id' ? `/management/v1/agents/${id}/usage` : `/management/v1/projects/${id}/usage`,
    query,
    sql: usageSql(scope, id, from, to),
  };
};

const cases: Case[] = [
  list('no filter', {}),
  list('project_id', { project_id: midAgent.project_id }),
  list('user_id', { user_id: user.user_id }),
  list('external_id', { external_id: external.external_id }),
  list('created (from, 7 days)', { created: [daysAgo(7, 5)] }),
  list('created (range, one week a month ago)', { created: [daysAgo(37, 5), daysAgo(30, 17)] }),
  list('tool (common: catalog 45%)', { tool: ['catalog'] }),
  list('tool (rare: recalls 0.1%)', { tool: ['recalls'] }),
  list('tool ×2 (OR)', { tool: ['warranty', 'bulk_order'] }),
  list('rule code (40%)', { rule: ['over_budget'] }),
  list('rule code:blocked (6%)', { rule: ['over_budget:blocked'] }),
  list('rule rare:fired (0.2%)', { rule: ['region_block:fired'] }),
  list('param key:value', { param: ['color:blue'] }),
  list('param key:* (rare: coupon 1%)', { param: ['coupon:*'] }),
  list('param key>=n (budget>=990, 0.4%)', { param: ['budget>=990'] }),
  list('param key<n (budget<100)', { param: ['budget<100'] }),
  list('agent_id (big agent)', { agent_id: [bigAgent.agent_id] }),
  list('agent_id (small agent)', { agent_id: [smallAgent.agent_id] }),
  list('agent_id ×2 (OR)', { agent_id: [midAgent.agent_id, smallAgent.agent_id] }),
  list('runtime_version=2 + agent_id', { runtime_version: '2', agent_id: [v2Agent.agent_id] }),
  list('tool + rule + param (common)', { tool: ['catalog'], rule: ['over_budget:fired'], param: ['budget>=500'] }),
  list('tool + rule + param (rare)', { tool: ['gift_cards'], rule: ['fraud:blocked'], param: ['tier:gold'] }),
  list('tool (rare) + rule (common) + param (common)', { tool: ['warranty'], rule: ['over_budget'], param: ['color:*'] }),
  list('agent_id + tool + created range', { agent_id: [midAgent.agent_id], tool: ['sizes'], created: [daysAgo(120), daysAgo(60)] }),
  list('project_id + rule + param', { project_id: bigAgent.project_id, rule: ['age_check:blocked'], param: ['size>=44'] }),
  list('user_id + tool + created', { user_id: user.user_id, tool: ['catalog'], created: [daysAgo(300)] }),
  list('agent_id + rule + param (<)', { agent_id: [bigAgent.agent_id], rule: ['vip:fired'], param: ['budget<50'] }),
  list('created range + tool + param', { created: [daysAgo(200), daysAgo(100)], tool: ['order_status'], param: ['category:shoes'] }),
  usage('project usage, all time', 'project_id', bigAgent.project_id),
  usage('project usage, 30 days, partial ends', 'project_id', bigAgent.project_id, daysAgo(30, 13), daysAgo(1, 9)),
  usage('project usage, within one day', 'project_id', bigAgent.project_id, daysAgo(3, 2), daysAgo(3, 20)),
  usage('project usage, one year, partial ends', 'project_id', bigAgent.project_id, daysAgo(364, 7), daysAgo(0, 1)),
  usage('project usage, from only', 'project_id', bigAgent.project_id, daysAgo(90, 11)),
  usage('agent usage, 7 days, partial ends', 'agent_id', bigAgent.agent_id, daysAgo(7, 6), daysAgo(0, 3)),
];

const app = await createApp(
  loadConfig({
    DATABASE_URL: databaseUrl,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'silent',
    WORKERS: 'off',
    NODE_ENV: 'development',
    REDIS_KEY_PREFIX: `bench-threads-${process.pid}`,
    RATE_LIMIT_MAX: '100000000',
  }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;

const urlOf = (c: Case) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(c.query)) for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  const qs = search.toString();
  return `${c.path}${qs ? `?${qs}` : ''}`;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Row {
  name: string;
  url: string;
  p50: number;
  p95: number;
  max: number;
  results: string;
  dbMs: number;
  plan: string;
}
const rows: Row[] = [];
for (const c of cases) {
  const url = urlOf(c);
  const timings: number[] = [];
  let results = '';
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    const startedAt = performance.now();
    const res = await fetch(`${base}${url}`, { headers: { 'x-organization-api-key': apiKey } });
    const body = (await res.json()) as { results?: unknown[]; interaction_count?: number };
    const ms = performance.now() - startedAt;
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= WARMUP) timings.push(ms);
    results = body.results ? String(body.results.length) : `${body.interaction_count} interactions`;
  }
  timings.sort((a, b) => a - b);
  const { text, values: params } = c.sql();
  const explained = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`, params);
  const plan = explained.rows.map((r) => r['QUERY PLAN']).join('\n');
  const dbMs = Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? NaN);
  rows.push({
    name: c.name,
    url,
    p50: percentile(timings, 50),
    p95: percentile(timings, 95),
    max: timings[timings.length - 1]!,
    results,
    dbMs,
    plan,
  });
  log(
    `${c.name.padEnd(48)} p50 ${percentile(timings, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(timings, 95).toFixed(1).padStart(6)} ms  (${results})`,
  );
}
await app.close();

const { rows: counts } = await db.query<{ threads: string; interactions: string; usage_rows: string }>(
  `SELECT (SELECT count(*) FROM threads) AS threads, (SELECT count(*) FROM interactions) AS interactions, (SELECT count(*) FROM usage_daily) AS usage_rows`,
);
await db.end();

const fmt = (ms: number) => ms.toFixed(1);
const markdown = [
  `Measured ${new Date().toISOString()} on ${counts[0]!.threads} threads, ${counts[0]!.interactions} interactions (${counts[0]!.usage_rows} usage_daily rows);`,
  `${RUNS} sequential requests per query after ${WARMUP} warm-up requests, HTTP round trip through the real route (org API key auth, validation, SQL, JSON).`,
  '',
  '| Query | p50 ms | p95 ms | max ms | SQL execution ms (EXPLAIN ANALYZE) | Results |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.max)} | ${fmt(r.dbMs)} | ${r.results} |`),
  '',
  '### Plans',
  '',
  ...rows.flatMap((r) => [`#### ${r.name}`, '', `\`GET ${r.url}\``, '', '```', r.plan, '```', '']),
].join('\n');
writeFileSync(values.out!, `${markdown}\n`);
log(`wrote ${values.out}`);

if (values.drop) {
  const adminUrl = new URL(databaseUrl);
  const name = adminUrl.pathname.slice(1);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  log(`dropped ${name}`);
}
process.exit(0);
