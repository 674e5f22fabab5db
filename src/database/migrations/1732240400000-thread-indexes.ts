import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The management read side at a million threads (docs/performance.md, "Threads at scale").
 *
 * - Keyset indexes `(organization_id, <filter column>, created_at, id)`: a filter on agent, user, project or
 *   external id walks one index in list order and stops after a page. The unfiltered list and `created` ranges
 *   use `ix_threads_organization_created` from the threads migration.
 * - GIN indexes on the facets: `tools` and `rules` (text[]: `&&` for OR within the field) and `params`
 *   (jsonb_ops, not jsonb_path_ops: `key:*` is the `?` operator, which jsonb_path_ops cannot answer).
 *   The planner picks between walking the created_at index with a filter (common facets) and a bitmap of the
 *   GIN index (rare facets) from the array statistics.
 * - `usage_daily`: one row per (agent, UTC day, shard) with the interaction count and token sums, maintained in
 *   the inserting transaction by a statement-level trigger (one upsert per statement, bulk inserts included).
 *   Usage over a range reads whole days from here and only the partial first and last days from interactions.
 *   Concurrent turns of one agent upsert into the shard of their own backend (pid % 8), so they don't queue on
 *   one row lock.
 */
export class ThreadIndexes1732240400000 implements MigrationInterface {
  name = 'ThreadIndexes1732240400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX ix_threads_org_agent_created ON threads (organization_id, agent_id, created_at, id);
      CREATE INDEX ix_threads_org_user_created ON threads (organization_id, user_id, created_at, id);
      CREATE INDEX ix_threads_org_project_created ON threads (organization_id, project_id, created_at, id);
      CREATE INDEX ix_threads_org_external_created ON threads (organization_id, external_id, created_at, id) WHERE external_id IS NOT NULL;
      CREATE INDEX ix_threads_tools ON threads USING gin (tools);
      CREATE INDEX ix_threads_rules ON threads USING gin (rules);
      CREATE INDEX ix_threads_params ON threads USING gin (params);

      CREATE TABLE usage_daily (
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        day date NOT NULL,
        shard smallint NOT NULL,
        interaction_count bigint NOT NULL DEFAULT 0,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        cache_read_tokens bigint NOT NULL DEFAULT 0,
        reasoning_tokens bigint NOT NULL DEFAULT 0,
        CONSTRAINT pk_usage_daily PRIMARY KEY (agent_id, day, shard)
      );
      CREATE INDEX ix_usage_daily_project_day ON usage_daily (project_id, day);

      CREATE FUNCTION usage_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        sign integer := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
      BEGIN
        INSERT INTO usage_daily AS u (organization_id, project_id, agent_id, day, shard,
                                      interaction_count, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
        SELECT organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, (pg_backend_pid() % 8)::smallint,
               sign * count(*), sign * sum(input_tokens), sign * sum(output_tokens), sign * sum(cache_read_tokens), sign * sum(reasoning_tokens)
          FROM changed_rows
         GROUP BY organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date
        ON CONFLICT (agent_id, day, shard) DO UPDATE
           SET interaction_count = u.interaction_count + EXCLUDED.interaction_count,
               input_tokens = u.input_tokens + EXCLUDED.input_tokens,
               output_tokens = u.output_tokens + EXCLUDED.output_tokens,
               cache_read_tokens = u.cache_read_tokens + EXCLUDED.cache_read_tokens,
               reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens;
        RETURN NULL;
      END $$;
      CREATE TRIGGER tr_interactions_usage_insert AFTER INSERT ON interactions
        REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_daily_apply();
      CREATE TRIGGER tr_interactions_usage_delete AFTER DELETE ON interactions
        REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_daily_apply();

      INSERT INTO usage_daily (organization_id, project_id, agent_id, day, shard,
                               interaction_count, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
      SELECT organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, 0,
             count(*), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)
        FROM interactions
       GROUP BY organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER tr_interactions_usage_delete ON interactions;
      DROP TRIGGER tr_interactions_usage_insert ON interactions;
      DROP FUNCTION usage_daily_apply();
      DROP TABLE usage_daily;
      DROP INDEX ix_threads_params, ix_threads_rules, ix_threads_tools, ix_threads_org_external_created,
                 ix_threads_org_project_created, ix_threads_org_user_created, ix_threads_org_agent_created;
    `);
  }
}
