import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations. One `interactions` row per turn holds both the end-user message and the reply (one insert
 * per turn on the hot path); the transcript is derived from it. `threads` carries the facets the thread list
 * filters on (tools activated, rules with outcome, parameters), merged on every turn.
 */
export class ThreadsInteractions1732240200000 implements MigrationInterface {
  name = 'ThreadsInteractions1732240200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE threads (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        user_id varchar(255) NOT NULL,
        external_id varchar(255),
        title varchar(200) NOT NULL DEFAULT '',
        runtime varchar(2) NOT NULL,
        version_tag varchar(32) NOT NULL,
        tools text[] NOT NULL DEFAULT '{}',
        rules text[] NOT NULL DEFAULT '{}',
        params jsonb NOT NULL DEFAULT '{}',
        interaction_count integer NOT NULL DEFAULT 0,
        last_interaction_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX uq_threads_agent_external_id ON threads (agent_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX ix_threads_organization_created ON threads (organization_id, created_at, id);

      CREATE TABLE interactions (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL,
        project_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        thread_id char(24) NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        source varchar(16) NOT NULL,
        user_id varchar(255) NOT NULL,
        user_message_id char(24) NOT NULL,
        user_text text,
        image_url text,
        agent_variables jsonb NOT NULL DEFAULT '{}',
        reply_message_id char(24) NOT NULL,
        reply_text text NOT NULL,
        reply jsonb NOT NULL,
        trace jsonb NOT NULL,
        runtime varchar(2) NOT NULL,
        runtime_build varchar(16) NOT NULL,
        version_id char(24) NOT NULL,
        revision_id char(24) NOT NULL,
        version_tag varchar(32) NOT NULL,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        cache_read_tokens integer NOT NULL DEFAULT 0,
        reasoning_tokens integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_interactions_thread_seq UNIQUE (thread_id, seq)
      );
      CREATE INDEX ix_interactions_agent_created ON interactions (agent_id, created_at);
      CREATE INDEX ix_interactions_project_created ON interactions (project_id, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE interactions, threads`);
  }
}
