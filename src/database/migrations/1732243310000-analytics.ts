import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outcome analytics (issue 32, docs/evaluations.md "Analytics"): roll-ups kept as turns are written, as `usage_daily` is.
 *
 * - `interactions` gains `latency_ms` (the turn's answer time, engine included) and `declined` (the reply declined).
 * - `thread_outcomes`: one row per thread seen since this migration — the group it counts in (its first turn's UTC day,
 *   revision tag and version: the traffic arm) and its outcome: `handed_off` (sticky), else `declined` when its last
 *   agent reply declined, else `contained`. It goes with its thread.
 * - `analytics_daily`: per (agent, UTC day, revision tag, version, shard) the new threads and their outcomes, the turns
 *   (messages), tokens, feedback up/down, and a latency histogram of fixed buckets (`latency_counts[i]` counts turns
 *   under `LATENCY_BUCKET_BOUNDS_MS[i]`; the last entry the slower ones), which sums across rows, so p50/p95 of any
 *   group come from summed counts. Shards (backend pid % 8) keep concurrent turns of one agent off one row lock.
 * - `analytics_apply()`: a statement-level trigger on interactions, in the turn's own statement: one upsert of the
 *   thread's outcome and one of the day's counters (the thread moves between outcome counters when its last reply
 *   changes). Feedback and handoffs are counted by the analytics module from their bus events, in their transactions.
 * Threads from before this migration count from their next turn on (their first turn then is that turn).
 */
export const LATENCY_BUCKET_BOUNDS_MS = [
  25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 4000, 5000, 7500, 10000, 15000, 20000, 30000, 60000,
];

const BUCKETS = LATENCY_BUCKET_BOUNDS_MS.length + 1;
const BOUNDS = `ARRAY[${LATENCY_BUCKET_BOUNDS_MS.join(', ')}]::int[]`;

export class Analytics1732243310000 implements MigrationInterface {
  name = 'Analytics1732243310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE interactions ADD COLUMN latency_ms integer, ADD COLUMN declined boolean NOT NULL DEFAULT false;

      CREATE TABLE thread_outcomes (
        thread_id char(24) PRIMARY KEY REFERENCES threads(id) ON DELETE CASCADE,
        organization_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        day date NOT NULL,
        version_tag varchar(32) NOT NULL,
        version_id char(24) NOT NULL,
        outcome varchar(12) NOT NULL CONSTRAINT ck_thread_outcomes_outcome CHECK (outcome IN ('contained', 'declined', 'handed_off'))
      );

      CREATE TABLE analytics_daily (
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL,
        day date NOT NULL,
        version_tag varchar(32) NOT NULL,
        version_id char(24) NOT NULL,
        shard smallint NOT NULL,
        threads bigint NOT NULL DEFAULT 0,
        declined bigint NOT NULL DEFAULT 0,
        handed_off bigint NOT NULL DEFAULT 0,
        messages bigint NOT NULL DEFAULT 0,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        feedback_up bigint NOT NULL DEFAULT 0,
        feedback_down bigint NOT NULL DEFAULT 0,
        latency_counts bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[${BUCKETS}]),
        CONSTRAINT pk_analytics_daily PRIMARY KEY (agent_id, day, version_tag, version_id, shard)
      );

      -- Element-wise sum of two histograms of the same length.
      CREATE FUNCTION analytics_add_counts(a bigint[], b bigint[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
      CREATE AGGREGATE analytics_sum_counts(bigint[]) (SFUNC = analytics_add_counts, STYPE = bigint[], INITCOND = '{${Array(BUCKETS).fill(0).join(',')}}');

      CREATE FUNCTION analytics_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH firsts AS (
          SELECT DISTINCT ON (thread_id) thread_id, organization_id, agent_id, version_tag, version_id, created_at
            FROM changed_rows ORDER BY thread_id, seq
        ), lasts AS (
          SELECT DISTINCT ON (thread_id) thread_id, declined FROM changed_rows ORDER BY thread_id, seq DESC
        ), prior AS (
          SELECT o.thread_id, o.outcome FROM thread_outcomes o WHERE o.thread_id IN (SELECT thread_id FROM lasts)
        ), outcomes AS (
          INSERT INTO thread_outcomes AS o (thread_id, organization_id, agent_id, day, version_tag, version_id, outcome)
          SELECT f.thread_id, f.organization_id, f.agent_id, (f.created_at AT TIME ZONE 'UTC')::date, f.version_tag, f.version_id,
                 CASE WHEN l.declined THEN 'declined' ELSE 'contained' END
            FROM firsts f JOIN lasts l USING (thread_id)
          ON CONFLICT (thread_id) DO UPDATE
             SET outcome = CASE WHEN o.outcome = 'handed_off' THEN 'handed_off' ELSE EXCLUDED.outcome END
          RETURNING o.thread_id, o.organization_id, o.agent_id, o.day, o.version_tag, o.version_id, o.outcome
        ), moves AS (
          SELECT n.organization_id, n.agent_id, n.day, n.version_tag, n.version_id,
                 (p.thread_id IS NULL)::int AS threads,
                 (n.outcome = 'declined')::int - COALESCE((p.outcome = 'declined')::int, 0) AS declined,
                 0::bigint AS messages, 0::bigint AS input_tokens, 0::bigint AS output_tokens,
                 array_fill(0::bigint, ARRAY[${BUCKETS}]) AS latency_counts
            FROM outcomes n LEFT JOIN prior p USING (thread_id)
           WHERE p.thread_id IS NULL OR p.outcome <> n.outcome
        ), turns AS (
          SELECT organization_id, agent_id, (created_at AT TIME ZONE 'UTC')::date AS day, version_tag, version_id,
                 0 AS threads, 0 AS declined, count(*) AS messages, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
                 analytics_sum_counts(CASE WHEN latency_ms IS NULL THEN array_fill(0::bigint, ARRAY[${BUCKETS}])
                   ELSE array_fill(0::bigint, ARRAY[width_bucket(latency_ms, ${BOUNDS})]) || 1::bigint
                        || array_fill(0::bigint, ARRAY[${BUCKETS - 1} - width_bucket(latency_ms, ${BOUNDS})]) END) AS latency_counts
            FROM changed_rows c
           GROUP BY organization_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, version_tag, version_id
        )
        INSERT INTO analytics_daily AS a (organization_id, agent_id, day, version_tag, version_id, shard, threads, declined, messages,
                                          input_tokens, output_tokens, latency_counts)
        SELECT organization_id, agent_id, day, version_tag, version_id, (pg_backend_pid() % 8)::smallint, sum(threads), sum(declined),
               sum(messages), sum(input_tokens), sum(output_tokens), analytics_sum_counts(latency_counts)
          FROM (SELECT * FROM moves UNION ALL SELECT * FROM turns) x
         GROUP BY organization_id, agent_id, day, version_tag, version_id
        ON CONFLICT (agent_id, day, version_tag, version_id, shard) DO UPDATE
           SET threads = a.threads + EXCLUDED.threads,
               declined = a.declined + EXCLUDED.declined,
               messages = a.messages + EXCLUDED.messages,
               input_tokens = a.input_tokens + EXCLUDED.input_tokens,
               output_tokens = a.output_tokens + EXCLUDED.output_tokens,
               latency_counts = analytics_add_counts(a.latency_counts, EXCLUDED.latency_counts);
        RETURN NULL;
      END $$;
      CREATE TRIGGER tr_interactions_analytics_insert AFTER INSERT ON interactions
        REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_apply();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER tr_interactions_analytics_insert ON interactions;
      DROP FUNCTION analytics_apply();
      DROP AGGREGATE analytics_sum_counts(bigint[]);
      DROP FUNCTION analytics_add_counts(bigint[], bigint[]);
      DROP TABLE analytics_daily;
      DROP TABLE thread_outcomes;
      ALTER TABLE interactions DROP COLUMN declined, DROP COLUMN latency_ms;
    `);
  }
}
