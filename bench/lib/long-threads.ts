/**
 * Threads of any length in seconds, for the flat-cost scenarios (issue 15): copies of a thread that one real send
 * created, made with set-based SQL. Every column of the thread and of its turn is copied as the service wrote it
 * (`jsonb_populate_record` over the row: columns added by later migrations follow), and so is every item of the turn;
 * the copies get their own ids, end user, `seq` 1..turns (items numbered on from turn to turn) with created_at
 * increasing with it, and the matching `interaction_count`, `last_item_seq` and `last_interaction_at`, as if the
 * service had written every turn.
 */
import type { BenchContext } from '../scenario.js';

/** A time-ordered id as `newId()` makes it (8 hex digits of Unix seconds + 16 random), computed in SQL. */
const SQL_ID = `lpad(to_hex(extract(epoch FROM now())::bigint), 8, '0') || substr(md5(random()::text || clock_timestamp()::text), 1, 16)`;

/** What autovacuum would do after bulk writes, done now so that it does not run (and take a core) during a measured run. */
const settleTables = (ctx: BenchContext) => ctx.db.query('VACUUM (ANALYZE) threads, interactions, thread_items');

export interface CopiedThread {
  thread_id: string;
  user_id: string;
}

/**
 * `count` copies of `templateThreadId` (one turn), each with `turns` turns, for end users `<userPrefix>0..count-1`.
 * Vacuums and analyzes both tables afterwards, as autovacuum would have by the time a real thread got that long.
 */
export async function copyThread(
  ctx: BenchContext,
  templateThreadId: string,
  count: number,
  turns: number,
  userPrefix: string,
): Promise<CopiedThread[]> {
  const client = await ctx.db.connect();
  let copies: CopiedThread[];
  try {
    await client.query('BEGIN');
    copies = (
      await client.query<CopiedThread>(
        `INSERT INTO threads
       SELECT (jsonb_populate_record(t, jsonb_build_object(
                'id', ${SQL_ID}, 'user_id', $3 || (n - 1), 'interaction_count', $4::int, 'last_item_seq', $4::int * t.last_item_seq,
                'last_interaction_at', i.created_at + ($4::int - 1) * interval '1 ms'))).*
         FROM threads t JOIN interactions i ON i.thread_id = t.id AND i.seq = 1, generate_series(1, $2::int) n
        WHERE t.id = $1
       RETURNING id AS thread_id, user_id`,
        [templateThreadId, count, userPrefix, turns],
      )
    ).rows;
    await client.query(
      `WITH turns AS (
         INSERT INTO interactions
         SELECT (jsonb_populate_record(i, jsonb_build_object(
                  'id', ${SQL_ID}, 'thread_id', c.id, 'user_id', c.user_id, 'seq', s,
                  'created_at', i.created_at + (s - 1) * interval '1 ms'))).*
           FROM interactions i, unnest($2::text[], $3::text[]) c(id, user_id), generate_series(1, $4::int) s
          WHERE i.thread_id = $1 AND i.seq = 1
         RETURNING id, thread_id, user_id, seq, created_at)
       INSERT INTO thread_items
       SELECT (jsonb_populate_record(it, jsonb_build_object(
                'id', ${SQL_ID}, 'thread_id', turns.thread_id, 'turn_id', turns.id, 'created_at', turns.created_at,
                'seq', (turns.seq - 1) * (SELECT last_item_seq FROM threads WHERE id = $1) + it.seq,
                'author_id', CASE WHEN it.kind = 'end_user' THEN turns.user_id END))).*
         FROM turns, thread_items it
        WHERE it.thread_id = $1`,
      [templateThreadId, copies.map((r) => r.thread_id), copies.map((r) => r.user_id), turns],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await settleTables(ctx);
  return copies;
}

/** Takes copied threads back to their first `turns` turns (what sends added since is deleted). */
export async function truncateThreads(ctx: BenchContext, threads: CopiedThread[], turns: number): Promise<void> {
  const ids = threads.map((t) => t.thread_id);
  await ctx.db.query(
    `WITH gone AS (DELETE FROM interactions WHERE thread_id = ANY($1::char(24)[]) AND seq > $2 RETURNING id),
     gone_items AS (DELETE FROM thread_items WHERE thread_id = ANY($1::char(24)[]) AND turn_id IN (SELECT id FROM gone))
     UPDATE threads t
        SET interaction_count = $2,
            last_item_seq = (SELECT max(seq) FROM thread_items
                              WHERE thread_id = t.id AND turn_id NOT IN (SELECT id FROM gone))
      WHERE id = ANY($1::char(24)[]) AND interaction_count <> $2`,
    [ids, turns],
  );
  await settleTables(ctx);
}
