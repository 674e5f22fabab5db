import type { MigrationInterface, QueryRunner } from 'typeorm';

const applyFunction = (keyed: boolean) => `
  CREATE OR REPLACE FUNCTION usage_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    sign integer := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
  BEGIN
    INSERT INTO usage_daily AS u (organization_id, project_id, agent_id, day, ${keyed ? 'version_tag, ' : ''}shard,
                                  interaction_count, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
    SELECT organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, ${keyed ? 'version_tag, ' : ''}(pg_backend_pid() % 8)::smallint,
           sign * count(*), sign * sum(input_tokens), sign * sum(output_tokens), sign * sum(cache_read_tokens), sign * sum(reasoning_tokens)
      FROM changed_rows c
     WHERE TG_OP = 'INSERT' OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
     GROUP BY organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date${keyed ? ', version_tag' : ''}
    ON CONFLICT (agent_id, day, ${keyed ? 'version_tag, ' : ''}shard) DO UPDATE
       SET interaction_count = u.interaction_count + EXCLUDED.interaction_count,
           input_tokens = u.input_tokens + EXCLUDED.input_tokens,
           output_tokens = u.output_tokens + EXCLUDED.output_tokens,
           cache_read_tokens = u.cache_read_tokens + EXCLUDED.cache_read_tokens,
           reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens;
    RETURN NULL;
  END $$;`;

/**
 * Traffic splits (issue 20, docs/releases.md): `agent_traffic_splits` holds one row per arm of an agent's split
 * (position = the arm's place in the cumulative percent order; `revision_id` = what a non-live arm answers with).
 * `usage_daily` gains `version_tag` in its key so usage can be broken down by the version that answered; the roll-up
 * is rebuilt from interactions once (at this point it is exactly their aggregate) and `usage_daily_apply()` is
 * redefined with the tag (its DELETE branch unchanged: subtract, skipping a vanished organization).
 */
export class TrafficSplits1732241900000 implements MigrationInterface {
  name = 'TrafficSplits1732241900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_traffic_splits (
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version_id char(24) NOT NULL REFERENCES agent_versions(id) ON DELETE CASCADE,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        revision_id char(24) NOT NULL REFERENCES agent_revisions(id) ON DELETE CASCADE,
        position smallint NOT NULL CONSTRAINT ck_agent_traffic_splits_position CHECK (position >= 0),
        percent smallint NOT NULL CONSTRAINT ck_agent_traffic_splits_percent CHECK (percent BETWEEN 1 AND 100),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT pk_agent_traffic_splits PRIMARY KEY (agent_id, version_id),
        CONSTRAINT uq_agent_traffic_splits_agent_position UNIQUE (agent_id, position)
      );

      LOCK TABLE usage_daily IN EXCLUSIVE MODE;
      ALTER TABLE usage_daily ADD COLUMN version_tag varchar(32) NOT NULL DEFAULT '';
      ALTER TABLE usage_daily DROP CONSTRAINT pk_usage_daily;
      DELETE FROM usage_daily;
      INSERT INTO usage_daily (organization_id, project_id, agent_id, day, version_tag, shard,
                               interaction_count, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
      SELECT organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, version_tag, 0,
             count(*), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)
        FROM interactions
       GROUP BY organization_id, project_id, agent_id, (created_at AT TIME ZONE 'UTC')::date, version_tag;
      ALTER TABLE usage_daily ADD CONSTRAINT pk_usage_daily PRIMARY KEY (agent_id, day, version_tag, shard);
      ${applyFunction(true)}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ${applyFunction(false)}
      LOCK TABLE usage_daily IN EXCLUSIVE MODE;
      ALTER TABLE usage_daily DROP CONSTRAINT pk_usage_daily;
      CREATE TEMP TABLE usage_daily_merged ON COMMIT DROP AS
        SELECT organization_id, project_id, agent_id, day, shard, sum(interaction_count) AS interaction_count,
               sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
               sum(cache_read_tokens) AS cache_read_tokens, sum(reasoning_tokens) AS reasoning_tokens
          FROM usage_daily GROUP BY organization_id, project_id, agent_id, day, shard;
      DELETE FROM usage_daily;
      ALTER TABLE usage_daily DROP COLUMN version_tag;
      INSERT INTO usage_daily SELECT * FROM usage_daily_merged;
      ALTER TABLE usage_daily ADD CONSTRAINT pk_usage_daily PRIMARY KEY (agent_id, day, shard);
      DROP TABLE agent_traffic_splits;
    `);
  }
}
