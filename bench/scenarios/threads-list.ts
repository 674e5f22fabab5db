/**
 * GET /management/v1/threads, paired with the list-baseline (the same SELECT and page in bare Fastify + pg): goal
 * ≥ 0.70× its req/s with p95 ≤ 20 ms (issue 15). Seeds BENCH_THREADS threads (default 2,000) through the
 * messaging API; the requests rotate over the unfiltered list, the user_id, agent_id, tool, rule, param and
 * created filters and two combinations, with facet values taken from what the seeded turns recorded.
 * The million-thread figure needs the bulk seeder's data set (docs/performance.md, "Threads at scale").
 */
import { type BenchContext, defineScenario } from '../scenario.js';
import { inParallel, LIVE_AGENT_ROUTES, messagingAgent, pick, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

/** The most common value of a facet among the seeded threads (a filter that matches, so a page is read). */
async function commonFacet(ctx: BenchContext, column: 'tools' | 'rules'): Promise<string | undefined> {
  const { rows } = await ctx.db.query<{ value: string }>(
    `SELECT v AS value FROM threads, unnest(${column}) v WHERE organization_id = $1 GROUP BY v ORDER BY count(*) DESC, v LIMIT 1`,
    [ctx.org.organizationId],
  );
  return rows[0]?.value;
}

export default defineScenario({
  name: 'threads-list',
  description: 'GET /management/v1/threads, 50 per page, 9 filter shapes in rotation; goal ≥ 0.70× list-baseline, p95 ≤ 20 ms',
  order: 70,
  baseline: 'list-baseline',
  goal: { ratio: 0.7, p95MaxMs: 20 },
  available: (ctx) => requireRoutes(ctx, ['GET /management/v1/threads', 'POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers, agentId } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    const count = Number(process.env.BENCH_THREADS ?? 2000);
    let halfway = '';
    await inParallel(count, 8, async (i) => {
      if (i === Math.floor(count / 2)) halfway = new Date().toISOString();
      await ctx.request('POST', '/messaging/v1/messages', {
        headers,
        body: { text: pick(SHOPPING_QUESTIONS, i), user_id: `bench-user-${i % 200}` },
      });
    });
    ctx.log(`seeded ${count} threads`);
    const tool = await commonFacet(ctx, 'tools');
    const rule = await commonFacet(ctx, 'rules');
    // A string-valued parameter (the baseline writes key:value as the service does for a non-numeric value).
    const { rows } = await ctx.db.query<{ param: string }>(
      `SELECT p.key || ':' || p.value AS param FROM threads t, jsonb_each_text(t.params) p
        WHERE t.organization_id = $1 AND jsonb_typeof(t.params -> p.key) = 'string' AND p.value ~ '^[A-Za-z0-9_.-]+$'
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      [ctx.org.organizationId],
    );
    const param = rows[0]?.param;
    const q = (filters: Record<string, string | undefined>) => {
      const search = new URLSearchParams({ 'page[size]': '50' });
      for (const [key, value] of Object.entries(filters)) if (value !== undefined) search.set(key, value);
      return `/management/v1/threads?${search.toString()}`;
    };
    const paths = [
      q({}),
      q({ user_id: 'bench-user-7' }),
      q({ agent_id: agentId }),
      q({ created: halfway }),
      ...(tool ? [q({ tool })] : []),
      ...(rule ? [q({ rule })] : []),
      ...(param ? [q({ param })] : []),
      q({ agent_id: agentId, user_id: 'bench-user-7' }),
      ...(tool ? [q({ agent_id: agentId, tool, created: halfway })] : []),
    ];
    ctx.log(`list filters: tool=${tool ?? '(none recorded)'}, rule=${rule ?? '(none recorded)'}, param=${param ?? '(none recorded)'}`);
    return { requests: [{ method: 'GET', path: paths[0]!, headers: ctx.org.headers, paths }] };
  },
});
