import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Human handoff (docs/handoff.md): who holds a thread. `control` is `agent` (the default: every existing thread),
 * `pending` (waiting for an operator) or `human` (an operator, `assignee_id`, holds it). Changed only by
 * compare-and-set statements of the conversation store. The handoff timestamps keep the last handoff's request,
 * acceptance and release (time to accept, time held); `handoff_timed_out_at` makes the timeout act once per request.
 *
 * Adding columns with constant defaults rewrites nothing (PostgreSQL 11+). The inbox reads threads that are not under
 * agent control, oldest request first: a partial index holds exactly those, so it stays as small as the inbox.
 * Channel threads: what operators write (and the handoff and timeout messages) leaves as outbound `operator` messages.
 */
export class ThreadHandoff1732243200000 implements MigrationInterface {
  name = 'ThreadHandoff1732243200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE threads
        ADD COLUMN control varchar(8) NOT NULL DEFAULT 'agent',
        ADD COLUMN assignee_id char(24) REFERENCES users(id) ON DELETE SET NULL,
        ADD COLUMN handoff_reason varchar(500),
        ADD COLUMN handoff_requested_at timestamptz(3),
        ADD COLUMN handoff_accepted_at timestamptz(3),
        ADD COLUMN handoff_released_at timestamptz(3),
        ADD COLUMN handoff_timed_out_at timestamptz(3),
        ADD CONSTRAINT ck_threads_control CHECK (control IN ('agent', 'pending', 'human'));
      CREATE INDEX ix_threads_inbox ON threads (organization_id, handoff_requested_at, id) WHERE control <> 'agent';
      ALTER TABLE channel_messages
        DROP CONSTRAINT ck_channel_messages_kind,
        ADD CONSTRAINT ck_channel_messages_kind CHECK (kind IN ('opening', 'inbound', 'reply', 'operator'));
    `);
  }

  /** Operator messages and control notes stay: they are items like any other (their outbound SMS records go). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM channel_messages WHERE kind = 'operator';
      ALTER TABLE channel_messages
        DROP CONSTRAINT ck_channel_messages_kind,
        ADD CONSTRAINT ck_channel_messages_kind CHECK (kind IN ('opening', 'inbound', 'reply'));
      DROP INDEX ix_threads_inbox;
      ALTER TABLE threads
        DROP CONSTRAINT ck_threads_control,
        DROP COLUMN control,
        DROP COLUMN assignee_id,
        DROP COLUMN handoff_reason,
        DROP COLUMN handoff_requested_at,
        DROP COLUMN handoff_accepted_at,
        DROP COLUMN handoff_released_at,
        DROP COLUMN handoff_timed_out_at;
    `);
  }
}
