import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events webhook (docs/events.md). `events` is the durable store: a row is committed before the 202, and Bull
 * only carries "look at event X" nudges. `seq` is the acceptance order; a conversation is (agent_id,
 * external_thread_id). The partial index serves the "is this event the head of its conversation?" check and
 * the sweeper. `interactions.event_id` (unique) makes a turn's write idempotent per event.
 */
export class Events1732240300000 implements MigrationInterface {
  name = 'Events1732240300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        id char(24) PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL,
        external_thread_id varchar(255),
        text text,
        agent_variables jsonb NOT NULL DEFAULT '{}',
        status varchar(16) NOT NULL DEFAULT 'queued'
          CONSTRAINT ck_events_status CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        error text,
        thread_id char(24),
        interaction_id char(24),
        available_at timestamptz(3) NOT NULL DEFAULT now(),
        locked_until timestamptz(3),
        enqueued_at timestamptz(3) NOT NULL DEFAULT now(),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        completed_at timestamptz(3)
      );
      CREATE UNIQUE INDEX uq_events_seq ON events (seq);
      CREATE INDEX ix_events_pending_conversation ON events (agent_id, external_thread_id, seq)
        WHERE status IN ('queued', 'processing');
      CREATE INDEX ix_events_pending ON events (seq) WHERE status IN ('queued', 'processing');

      ALTER TABLE interactions ADD COLUMN event_id char(24);
      CREATE UNIQUE INDEX uq_interactions_event_id ON interactions (event_id) WHERE event_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_interactions_event_id; ALTER TABLE interactions DROP COLUMN event_id; DROP TABLE events`);
  }
}
