import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting an organization cascades to its interactions, whose delete trigger subtracted them from
 * `usage_daily` by inserting rows for the organization being deleted, which its foreign key refused: the whole
 * deletion failed. Its roll-up rows go with it anyway, so deletions of a vanished organization are skipped.
 */
export class UsageRollupOrganizationDelete1732240900000 implements MigrationInterface {
  name = 'UsageRollupOrganizationDelete1732240900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION usage_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        sign integer := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
      BEGIN
        INSERT INTO usage_daily AS u (organization_id, project_id, agent_id, day, shard,
                                      interaction_count, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
        SELECT organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, (pg_backend_pid() % 8)::smallint,
               sign * count(*), sign * sum(input_tokens), sign * sum(output_tokens), sign * sum(cache_read_tokens), sign * sum(reasoning_tokens)
          FROM changed_rows c
         WHERE TG_OP = 'INSERT' OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
         GROUP BY organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date
        ON CONFLICT (agent_id, day, shard) DO UPDATE
           SET interaction_count = u.interaction_count + EXCLUDED.interaction_count,
               input_tokens = u.input_tokens + EXCLUDED.input_tokens,
               output_tokens = u.output_tokens + EXCLUDED.output_tokens,
               cache_read_tokens = u.cache_read_tokens + EXCLUDED.cache_read_tokens,
               reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens;
        RETURN NULL;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION usage_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
    `);
  }
}
