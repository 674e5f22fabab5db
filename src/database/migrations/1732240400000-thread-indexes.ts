import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The management read side at a million threads (docs/performance.md, "Threads at scale").
 *
 * - Keyset indexes `(organization_id, <filter column>, created_at, id)`: a filter on agent, user, project or
 *   external id walks one index in list order and stops after a page. The unfiltered list and `created` ranges
 *   use `ix_threads_organization_created` from the threads migration.
 * - One GIN index over (agent_id, project_id, tools, rules) (btree_gin gives GIN the equality operators on the ids):
 *   a tool or rule filter alone reads that value's posting list (`@>`, or `&&` for OR within the field), and with
 *   an agent or project filter GIN intersects the two lists inside one index scan, so "this agent's threads where
 *   rule X fired" touches only those threads' heap pages. A GIN index answers conditions on any subset of its
 *   columns, so this one index replaces separate ones on tools and rules (one index to maintain per write).
 * - GIN on `params` with jsonb_path_ops: `key:value` is `@>`, one hashed (path, value) entry per lookup, so a
 *   lookup reads only the posting list of that pair (jsonb_ops would intersect the key's list — hundreds of thousands of rows
 *   for a common key — with the value's). `key:*` and the numeric comparisons are jsonpath predicates that no GIN
 *   index can narrow; they use the filter-only operators `#@?` / `#@@` below.
 * - Statistics target 1000 on the facet columns: the planner's choice between walking the created_at index with a
 *   filter (common facets: the page fills after a few hundred rows) and a GIN bitmap (rare facets) rests on the
 *   element frequencies (tools, rules) and on the jsonpath selectivity, which PostgreSQL estimates by running the
 *   predicate over the column's histogram; 1000 entries resolve frequencies down to ~0.1%.
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
      CREATE EXTENSION IF NOT EXISTS btree_gin;
      CREATE INDEX ix_threads_facets ON threads USING gin (agent_id, project_id, tools, rules);
      CREATE INDEX ix_threads_params ON threads USING gin (params jsonb_path_ops);
      ALTER TABLE threads ALTER COLUMN tools SET STATISTICS 1000, ALTER COLUMN rules SET STATISTICS 1000,
                          ALTER COLUMN params SET STATISTICS 1000;
      -- @@ and @? on jsonb_path_ops: a predicate without an equality (a comparison, a bare key) has no index entry to
      -- look up, so the GIN index would be read whole (a million entries) — yet the planner sometimes prices that as
      -- cheap. These twins run the same functions with the same histogram-based estimate but belong to no operator
      -- class, so they can only filter.
      CREATE OPERATOR #@@ (LEFTARG = jsonb, RIGHTARG = jsonpath, FUNCTION = jsonb_path_match_opr, RESTRICT = matchingsel, JOIN = matchingjoinsel);
      CREATE OPERATOR #@? (LEFTARG = jsonb, RIGHTARG = jsonpath, FUNCTION = jsonb_path_exists_opr, RESTRICT = matchingsel, JOIN = matchingjoinsel);

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
      DROP OPERATOR #@? (jsonb, jsonpath);
      DROP OPERATOR #@@ (jsonb, jsonpath);
      ALTER TABLE threads ALTER COLUMN tools SET STATISTICS -1, ALTER COLUMN rules SET STATISTICS -1,
                          ALTER COLUMN params SET STATISTICS -1;
      DROP INDEX ix_threads_params, ix_threads_facets, ix_threads_org_external_created,
                 ix_threads_org_project_created, ix_threads_org_user_created, ix_threads_org_agent_created;
    `);
  }
}
