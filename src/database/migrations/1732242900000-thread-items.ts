import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages as items (docs/conversation-core.md). A thread holds ordered items — end-user, agent, operator and
 * tool-step messages, and notes — in `thread_items`, numbered by `seq` within the thread; `threads.last_item_seq` is
 * the highest number given (the turn's write takes the next ones in the same statement, under the thread's row lock).
 * An `interactions` row is now the turn alone: what answered (version, runtime), its trace, its usage, its source and
 * input variables; the items it produced point at it through `turn_id` (null for an item no turn produced, such as an
 * operator's message or a note). Item ids are the message ids the API has always returned, so they stay stable.
 *
 * Existing turns are carried over: the end-user message (when it had text or an image) becomes item `2·seq`, the
 * reply item `2·seq + 1` — the transcript's former cursor positions, so cursors issued before keep working.
 * No foreign key from `turn_id` to `interactions`: both go with their thread (ON DELETE CASCADE), and an index to
 * make that key's cascade cheap would cost every turn's write.
 */
export class ThreadItems1732242900000 implements MigrationInterface {
  name = 'ThreadItems1732242900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE thread_items (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL,
        thread_id char(24) NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        turn_id char(24),
        kind varchar(16) NOT NULL,
        author_id varchar(255),
        text text,
        image_url text,
        content json,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_thread_items_thread_seq UNIQUE (thread_id, seq),
        CONSTRAINT ck_thread_items_kind CHECK (kind IN ('end_user', 'agent', 'operator', 'tool_step', 'note'))
      );
      ALTER TABLE thread_items ALTER COLUMN content SET COMPRESSION lz4;

      INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
      SELECT user_message_id, organization_id, thread_id, seq * 2, id, 'end_user', user_id, user_text, image_url, NULL, created_at
        FROM interactions WHERE user_text IS NOT NULL OR image_url IS NOT NULL
      UNION ALL
      SELECT reply_message_id, organization_id, thread_id, seq * 2 + 1, id, 'agent', NULL, reply_text, NULL, reply, created_at
        FROM interactions;

      ALTER TABLE threads ADD COLUMN last_item_seq integer NOT NULL DEFAULT 0;
      UPDATE threads t SET last_item_seq = i.last
        FROM (SELECT thread_id, max(seq) AS last FROM thread_items GROUP BY thread_id) i
       WHERE i.thread_id = t.id;

      ALTER TABLE interactions
        DROP COLUMN user_message_id,
        DROP COLUMN user_text,
        DROP COLUMN image_url,
        DROP COLUMN reply_message_id,
        DROP COLUMN reply_text,
        DROP COLUMN reply;
    `);
  }

  /**
   * Back to one row per turn holding both messages. Items no turn produced (none before handoff exists) have no place
   * there and are dropped; a turn without an end-user item gets a fresh message id, as it had one before.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE interactions
        ADD COLUMN user_message_id char(24),
        ADD COLUMN user_text text,
        ADD COLUMN image_url text,
        ADD COLUMN reply_message_id char(24),
        ADD COLUMN reply_text text,
        ADD COLUMN reply json;
      UPDATE interactions i SET user_message_id = u.id, user_text = u.text, image_url = u.image_url
        FROM thread_items u WHERE u.turn_id = i.id AND u.kind = 'end_user';
      UPDATE interactions i SET reply_message_id = a.id, reply_text = a.text, reply = a.content
        FROM thread_items a WHERE a.turn_id = i.id AND a.kind = 'agent';
      UPDATE interactions SET user_message_id = left(md5(id || ':user'), 24) WHERE user_message_id IS NULL;
      ALTER TABLE interactions
        ALTER COLUMN user_message_id SET NOT NULL,
        ALTER COLUMN reply_message_id SET NOT NULL,
        ALTER COLUMN reply_text SET NOT NULL,
        ALTER COLUMN reply SET NOT NULL,
        ALTER COLUMN reply SET COMPRESSION lz4;
      ALTER TABLE threads DROP COLUMN last_item_seq;
      DROP TABLE thread_items;
    `);
  }
}
