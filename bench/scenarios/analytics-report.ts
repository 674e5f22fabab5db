/**
 * GET /management/v1/agents/{agentId}/analytics at 1,000,000 threads (issue 32): goal p95 ≤ 50 ms. Seeds BENCH_THREADS
 * threads (default 1,000,000) with two turns each into an organization of its own with the bulk seeder; the roll-up
 * trigger on interactions (migration 1732243310000) fills `analytics_daily` and `thread_outcomes` as the seed writes
 * the turns, as it would for real traffic. The requests rotate over the three groupings (version_tag, arm, day), with
 * and without a 30-day range, for the agent with the most threads.
 */
import { defineScenario } from '../scenario.js';
import { bulkLoad, seedThreads } from '../lib/bulk-threads.js';
import { requireRoutes } from '../lib/seed.js';

export default defineScenario({
  name: 'analytics-report',
  description: 'GET /management/v1/agents/{id}/analytics over 1,000,000 seeded threads, 3 groupings × 2 ranges; goal p95 ≤ 50 ms',
  order: 75,
  goal: { p95MaxMs: 50 },
  work: {
    service: 'the analytics route: key, query validation, agent visibility, one aggregate over the daily roll-up, quantiles',
    baseline: 'the bare Fastify /health',
  },
  available: (ctx) => requireRoutes(ctx, ['GET /management/v1/agents/{agentId}/analytics']),
  async seed(ctx) {
    const threads = Number(process.env.BENCH_THREADS ?? 1_000_000);
    const org = await ctx.createOrganization('bench-analytics');
    const started = Date.now();
    const client = await ctx.db.connect();
    try {
      await bulkLoad(
        client,
        ['threads', 'interactions', 'thread_items'],
        () =>
          seedThreads(client, {
            organizationId: org.organizationId,
            key: 'analytics',
            projects: 5,
            threads,
            interactions: 2 * threads,
            log: ctx.log,
          }),
        ctx.log,
      );
      await client.query('VACUUM (ANALYZE) analytics_daily');
    } finally {
      client.release();
    }
    ctx.log(`seeded ${threads} threads and ${2 * threads} turns in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const { rows } = await ctx.db.query<{ agent_id: string; threads: string; days: string }>(
      `SELECT agent_id, sum(threads) AS threads, count(DISTINCT day) AS days FROM analytics_daily WHERE organization_id = $1
        GROUP BY agent_id ORDER BY sum(threads) DESC LIMIT 1`,
      [org.organizationId],
    );
    const top = rows[0];
    if (!top) throw new Error('the analytics roll-up is empty after the seed');
    ctx.log(`agent ${top.agent_id}: ${top.threads} threads over ${top.days} days in the roll-up`);
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 19) + 'Z';
    const paths = ['version_tag', 'arm', 'day'].flatMap((groupBy) => [
      `/management/v1/agents/${top.agent_id}/analytics?group_by=${groupBy}`,
      `/management/v1/agents/${top.agent_id}/analytics?group_by=${groupBy}&created_from=${from}`,
    ]);
    return { requests: [{ method: 'GET', path: paths[0]!, headers: org.headers, paths }] };
  },
});
