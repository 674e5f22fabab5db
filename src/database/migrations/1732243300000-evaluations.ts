import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evaluations (issue 32, docs/evaluations.md): an agent's test cases (`test_cases`, their turns and expectations as one
 * JSON document), evaluation runs of a revision against them (`evaluations`, results written once when the run ends),
 * and the agent setting that makes a passing evaluation a condition of a publish. Evaluation turns are not stored as
 * threads: a run talks to the engine in memory, so no thread list, usage roll-up, analytics or webhook ever sees them.
 * Both tables go with their agent's hard delete (cascade) and are deleted with the agent's versions on a soft delete.
 * `message_feedback`: the end user's latest rating of an agent message (one row per message, replaced by a new rating),
 * with the turn's version for reporting; it goes with its thread (erasure, retention).
 */
export class Evaluations1732243300000 implements MigrationInterface {
  name = 'Evaluations1732243300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- IF NOT EXISTS: a test that runs today's app on an older store adds it ahead (thread-items-migration.e2e-spec.ts).
      ALTER TABLE agents ADD COLUMN IF NOT EXISTS publish_requires_passing_evaluation boolean NOT NULL DEFAULT false;

      CREATE TABLE test_cases (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        turns jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE INDEX ix_test_cases_agent_created ON test_cases (agent_id, created_at, id);

      CREATE TABLE evaluations (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version_id char(24) NOT NULL REFERENCES agent_versions(id) ON DELETE CASCADE,
        revision_id char(24) NOT NULL REFERENCES agent_revisions(id) ON DELETE CASCADE,
        version_tag varchar(32) NOT NULL,
        digest varchar(71) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'queued'
          CONSTRAINT ck_evaluations_status CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        passed boolean,
        case_count integer NOT NULL DEFAULT 0,
        passed_count integer NOT NULL DEFAULT 0,
        cases jsonb,
        compared_to jsonb,
        error text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        started_at timestamptz(3),
        completed_at timestamptz(3)
      );
      CREATE INDEX ix_evaluations_agent_created ON evaluations (agent_id, created_at, id);
      CREATE INDEX ix_evaluations_agent_digest_created ON evaluations (agent_id, digest, created_at);
      CREATE INDEX ix_evaluations_version_created ON evaluations (version_id, created_at);

      CREATE TABLE message_feedback (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL,
        thread_id char(24) NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        message_id char(24) NOT NULL,
        interaction_id char(24) NOT NULL,
        user_id varchar(255) NOT NULL,
        version_id char(24) NOT NULL,
        version_tag varchar(32) NOT NULL,
        rating varchar(4) NOT NULL CONSTRAINT ck_message_feedback_rating CHECK (rating IN ('up', 'down')),
        comment text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_message_feedback_message UNIQUE (message_id)
      );
      CREATE INDEX ix_message_feedback_agent_created ON message_feedback (agent_id, created_at, id);
      CREATE INDEX ix_message_feedback_thread ON message_feedback (thread_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE message_feedback;
      DROP TABLE evaluations;
      DROP TABLE test_cases;
      ALTER TABLE agents DROP COLUMN publish_requires_passing_evaluation;
    `);
  }
}
