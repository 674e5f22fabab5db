/**
 * GET /management/v1/threads, paired with the list-baseline (the same SELECT and page in bare Fastify + pg): goal
 * ≥ 0.70× its req/s with p95 ≤ 20 ms (issue 15). Seeds BENCH_THREADS threads (default 1,000,000) and three
 * interactions each into an organization of its own with the bulk seeder (`bench/lib/bulk-threads.ts`, the data
 * of "Threads at scale"); the requests rotate over the unfiltered list, the user_id, agent_id, tool, rule, param
 * and created filters and two combinations, with values read from the seeded rows so that every filter matches.
 */
import { type BenchContext, defineScenario, type OrgCredentials } from '../scenario.js';
import { bulkLoad, seedThreads } from '../lib/bulk-threads.js';
import { requireRoutes } from '../lib/seed.js';

/** One value read from the seeded v1 threads of the organization ($1). */
async function seeded(ctx: BenchContext, org: OrgCredentials, sql: string, params: unknown[] = []): Promise<string> {
  const { rows } = await ctx.db.query<{ value: string }>(sql, [org.organizationId, ...params]);
  if (!rows[0]) throw new Error(`no seeded value for: ${sql}`);
  return rows[0].value;
}

/** The most common value of a facet among the seeded v1 threads (a filter that matches, so a page is read). */
const commonFacet = (ctx: BenchContext, org: OrgCredentials, column: 'tools' | 'rules') =>
  seeded(
    ctx,
    org,
    `SELECT v AS value FROM threads, unnest(${column}) v WHERE organization_id = $1 AND runtime = 'v1' GROUP BY v ORDER BY count(*) DESC, v LIMIT 1`,
  );

export default defineScenario({
  name: 'threads-list',
  description: 'GET /management/v1/threads, 50 per page, 9 filter shapes in rotation; goal ≥ 0.70× list-baseline, p95 ≤ 20 ms',
  order: 70,
  baseline: 'list-baseline',
  goal: { ratio: 0.7, p95MaxMs: 20 },
  work: {
    service: 'the list route: key, query validation, facet plan, the keyset SELECT, page JSON',
    baseline: 'the same SELECT and page JSON, no framework',
  },
  available: (ctx) => requireRoutes(ctx, ['GET /management/v1/threads']),
  async seed(ctx) {
    const threads = Number(process.env.BENCH_THREADS ?? 1_000_000);
    // Its own organization: the threads other scenarios of the invocation wrote (hundreds of thousands of new-thread
    // sends, all from now) would change the filters' values and shapes, so that the list measured something else.
    const org = await ctx.createOrganization('bench-threads-list');
    const started = Date.now();
    const client = await ctx.db.connect();
    try {
      await bulkLoad(
        client,
        ['threads', 'interactions', 'thread_items'],
        () =>
          seedThreads(client, {
            organizationId: org.organizationId,
            key: 'threads-list',
            projects: 20,
            threads,
            interactions: 3 * threads,
            log: ctx.log,
          }),
        ctx.log,
      );
    } finally {
      client.release();
    }
    ctx.log(`seeded ${threads} threads and ${3 * threads} interactions in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const agentId = await seeded(
      ctx,
      org,
      `SELECT agent_id AS value FROM threads WHERE organization_id = $1 AND runtime = 'v1' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    );
    // The agent's most active end user: the user_id filter and the agent_id + user_id combination both match.
    const userId = await seeded(
      ctx,
      org,
      `SELECT user_id AS value FROM threads WHERE organization_id = $1 AND runtime = 'v1' AND agent_id = $2 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      [agentId],
    );
    // The median creation time: `created` keeps the newer half.
    const created = await seeded(
      ctx,
      org,
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS value FROM threads WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [Math.floor(threads / 2)],
    );
    const tool = await commonFacet(ctx, org, 'tools');
    const rule = await commonFacet(ctx, org, 'rules');
    // A string-valued parameter (the baseline writes key:value as the service does for a non-numeric value).
    const param = await seeded(
      ctx,
      org,
      `SELECT p.key || ':' || p.value AS value FROM threads t, jsonb_each_text(t.params) p
        WHERE t.organization_id = $1 AND t.runtime = 'v1' AND jsonb_typeof(t.params -> p.key) = 'string' AND p.value ~ '^[A-Za-z0-9_.-]+$'
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    );
    const q = (filters: Record<string, string>) =>
      `/management/v1/threads?${new URLSearchParams({ 'page[size]': '50', ...filters }).toString()}`;
    const paths = [
      q({}),
      q({ user_id: userId }),
      q({ agent_id: agentId }),
      q({ created }),
      q({ tool }),
      q({ rule }),
      q({ param }),
      q({ agent_id: agentId, user_id: userId }),
      q({ agent_id: agentId, tool, created }),
    ];
    ctx.log(`list filters: agent_id=${agentId}, user_id=${userId}, created=${created}, tool=${tool}, rule=${rule}, param=${param}`);
    return { requests: [{ method: 'GET', path: paths[0]!, headers: org.headers, paths }] };
  },
});
