import { Injectable } from '@nestjs/common';
import { DatabaseError } from 'pg';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { KeysetPlan } from '../../common/pagination/keyset.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import { ThreadGoneError, TurnAlreadyRecordedError } from './conversations.errors.js';
import {
  HISTORY_TURNS,
  type ChannelThread,
  type ControlChanged,
  type ControlChangeKind,
  type ControlWrite,
  type DeletedThreads,
  type InboxRow,
  type MessageWrite,
  type RecordedTurnWrite,
  type ThreadControl,
  type ThreadControlRow,
  type ExternalThread,
  type ItemKind,
  type MessageRow,
  type NewThread,
  type RecordedTurn,
  type RecordedTurnRow,
  type AgentMessageRow,
  type ThreadItemRow,
  type ThreadRow,
  type ThreadSelection,
  type ThreadState,
  type TraceRow,
  type TurnRecord,
  type UsagePlan,
  type UsageSums,
  turnItems,
} from './conversations.types.js';

interface ThreadHistoryRow {
  id: string;
  user_id: string;
  control: ThreadControl;
  /** The newest turn (null before the first). */
  latest: { id: string; agent_variables: Record<string, unknown>; version_id: string; revision_id: string } | null;
  /** The newest items, oldest first. */
  items: Array<{ seq: number; kind: ItemKind; text: string | null; image_url: string | null; turn_id: string | null }>;
}

/**
 * Items read for the history: every turn writes at most two (its end-user message and the reply), so the newest
 * HISTORY_TURNS turns are within this many items.
 */
const HISTORY_ITEMS = HISTORY_TURNS * 2;

const THREAD_COLUMNS = `id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag, tools, rules,
  params, interaction_count, last_interaction_at, created_at, updated_at, control, assignee_id, handoff_reason, handoff_requested_at,
  handoff_accepted_at, handoff_released_at`;
/** What a control change or an item written outside a turn returns (`t`: the updated thread). */
const CONTROL_COLUMNS = `t.id, t.organization_id, t.project_id, t.agent_id, t.user_id, t.channel, t.control, t.assignee_id, t.handoff_reason,
  t.handoff_requested_at, t.handoff_accepted_at, t.handoff_released_at, t.last_item_seq AS item_seq`;

/**
 * Each control change: the state it may start from (a condition on `old`, the thread's row as locked before the
 * change) and what it sets; `p` holds the values (`at`, `operator`, `reason`, `since`: the request a timeout answers,
 * `timeout_to`: where a timeout moves control).
 */
const CONTROL_CHANGES: Record<ControlChangeKind, { from: string; set: string }> = {
  requested: {
    from: `old.control = 'agent'`,
    set: `control = 'pending', assignee_id = NULL, handoff_reason = p.reason, handoff_requested_at = p.at, handoff_accepted_at = NULL,
          handoff_released_at = NULL, handoff_timed_out_at = NULL`,
  },
  accepted: { from: `old.control = 'pending'`, set: `control = 'human', assignee_id = p.operator, handoff_accepted_at = p.at` },
  // From the agent or a pending request; from `human` only when its operator is gone (a deleted user).
  takeover: {
    from: `(old.control <> 'human' OR old.assignee_id IS NULL)`,
    set: `control = 'human', assignee_id = p.operator, handoff_accepted_at = p.at, handoff_released_at = NULL,
          handoff_reason = CASE WHEN old.control = 'agent' THEN p.reason ELSE t.handoff_reason END,
          handoff_requested_at = CASE WHEN old.control = 'agent' THEN p.at ELSE t.handoff_requested_at END,
          handoff_timed_out_at = CASE WHEN old.control = 'agent' THEN NULL ELSE t.handoff_timed_out_at END`,
  },
  released: {
    from: `old.control = 'human' AND old.assignee_id = p.operator`,
    set: `control = 'agent', assignee_id = NULL, handoff_released_at = p.at`,
  },
  // Once per request: the request it was scheduled for, still pending, not timed out yet.
  timed_out: {
    from: `old.control = 'pending' AND old.handoff_requested_at = p.since AND old.handoff_timed_out_at IS NULL`,
    set: `control = p.timeout_to, handoff_timed_out_at = p.at, handoff_released_at = CASE WHEN p.timeout_to = 'agent' THEN p.at END`,
  },
};
const CHANNEL_THREAD_COLUMNS = 'id, organization_id, agent_id, user_id, external_id, channel, phone_number, sender_id, sender_number';

const INTERACTION_COLUMNS = `id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, agent_variables, trace, runtime,
  runtime_build, version_id, revision_id, version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at, event_id,
  latency_ms, declined`;

// On an existing thread the next seq is computed in the statement; two writers racing on one thread collide
// on uq_interactions_thread_seq and the loser retries with the next number.
const NEXT_SEQ = '(SELECT COALESCE(max(seq), 0) + 1 FROM interactions WHERE thread_id = $5)';
const interactionValues = (seq: string) =>
  `$1, $2, $3, $4, $5, ${seq}, $6, $7, $8::jsonb, $9::json, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $25, $26`;

/**
 * The turn's items, numbered after the thread's `last_item_seq` as the thread CTE returned it (`base`: the number
 * before them); their values are parameters from `$first` on, six per item. (Plain parameters, not a JSON document:
 * a long reply is not escaped and parsed once more.) The thread row's lock orders two writers on one thread, so their
 * numbers never collide.
 */
const insertItems = (base: string, first: number, count: number, where = '') => {
  const rows = Array.from({ length: count }, (_, i) => {
    const p = first + i * 6;
    return `(${i + 1}, $${p}::char(24), $${p + 1}::varchar(16), $${p + 2}::varchar(255), $${p + 3}::text, $${p + 4}::text, $${p + 5}::json)`;
  });
  return `INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
    SELECT x.id, $2, $5, ${base} + x.ord, $1, x.kind, x.author_id, x.text, x.image_url, x.content, $19
      FROM thread, (VALUES ${rows.join(', ')}) AS x(ord, id, kind, author_id, text, image_url, content)${where}`;
};

const SEQ_INDEX = 'uq_interactions_thread_seq';
/** Makes an events-webhook turn's write happen at most once per event. */
const EVENT_ID_INDEX = 'uq_interactions_event_id';
const SEQ_RETRIES = 5;

const INTERACTION_SUMS = 'count(*), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)';

const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  error instanceof DatabaseError && error.code === '23505' && error.constraint === constraint;

/**
 * The thread of a turn being written was deleted meanwhile (erasure or retention): a foreign key to `threads` of a row
 * the turn's transaction writes (`interactions_thread_id_fkey`, or the webhook sequence's) refused it.
 */
const isThreadGone = (error: unknown): boolean =>
  error instanceof DatabaseError && error.code === '23503' && /_thread_id_fkey$/.test(error.constraint ?? '');

/**
 * The SQL of `threads`, `thread_items`, `interactions` (turns) and their `usage_daily` / `usage_erased` roll-ups: the only
 * place those tables are named (migrations aside). The turn is two round trips: one read of the thread with its recent
 * items, one statement that writes the turn and its items and creates or updates the thread (facets merged) atomically.
 */
@Injectable()
export class ConversationsRepository {
  constructor(private readonly sql: SqlService) {}

  async threadState(organizationId: string, agentId: string, threadId: string): Promise<ThreadState | undefined> {
    const row = await this.sql.one<ThreadHistoryRow>(
      `SELECT t.id, t.user_id, t.control,
              (SELECT json_build_object('id', i.id, 'agent_variables', i.agent_variables, 'version_id', i.version_id,
                                        'revision_id', i.revision_id)
                 FROM interactions i WHERE i.thread_id = t.id ORDER BY i.seq DESC LIMIT 1) AS latest,
              COALESCE((SELECT json_agg(h ORDER BY h.seq) FROM (
                 SELECT seq, kind, text, image_url, turn_id FROM thread_items
                  WHERE thread_id = t.id ORDER BY seq DESC LIMIT ${HISTORY_ITEMS}) h), '[]'::json) AS items
         FROM threads t
        WHERE t.id = $1 AND t.organization_id = $2 AND t.agent_id = $3`,
      [threadId.toLowerCase(), organizationId, agentId],
      'turn_find_thread',
    );
    if (!row) return undefined;
    // The messages of the newest HISTORY_TURNS exchanges: a turn's items are consecutive, so those are the newest turn
    // ids seen; an operator's message (no turn) is an exchange of its own. Notes and tool steps are not messages.
    const unit = (item: ThreadHistoryRow['items'][number]) => item.turn_id ?? (item.kind === 'operator' ? `item:${item.seq}` : null);
    const units = new Set<string>();
    for (let i = row.items.length - 1; i >= 0; i -= 1) {
      const key = unit(row.items[i]!);
      if (key && !units.has(key)) {
        if (units.size === HISTORY_TURNS) break;
        units.add(key);
      }
    }
    const history: ThreadState['history'] = [];
    let asked: { text: string | null; image_url: string | null } | undefined;
    for (const item of row.items) {
      const key = unit(item);
      if (!key || !units.has(key)) continue;
      if (item.kind === 'end_user') {
        if (item.text) history.push({ role: 'user', text: item.text });
        if (item.turn_id === row.latest?.id) asked = item;
      } else if (item.kind === 'agent' || item.kind === 'operator') history.push({ role: 'agent', text: item.text ?? '' });
    }
    const { latest } = row;
    return {
      id: row.id,
      userId: row.user_id,
      control: row.control,
      history,
      versionId: latest?.version_id ?? null,
      revisionId: latest?.revision_id ?? null,
      last: latest ? { text: asked?.text ?? null, imageUrl: asked?.image_url ?? null, agentVariables: latest.agent_variables } : null,
    };
  }

  /**
   * Writes the turn; `TurnAlreadyRecordedError` when its event already has one. `attempt` wraps each try (a
   * transaction that also writes what reports the turn); a try that loses the seq race is retried whole.
   */
  async recordTurn(
    turn: TurnRecord,
    attempt: (write: () => Promise<RecordedTurnWrite>) => Promise<unknown> = (write) => write(),
  ): Promise<RecordedTurnWrite> {
    for (let tries = 0; ; tries += 1) {
      try {
        let written: RecordedTurnWrite = { handedOff: null };
        await attempt(async () => (written = await this.writeTurn(turn)));
        return written;
      } catch (error) {
        if (turn.eventId && isUniqueViolation(error, EVENT_ID_INDEX)) throw new TurnAlreadyRecordedError(turn.eventId);
        if (isThreadGone(error)) throw new ThreadGoneError();
        if (!isUniqueViolation(error, SEQ_INDEX) || tries >= SEQ_RETRIES) throw error;
      }
    }
  }

  private async writeTurn(turn: TurnRecord): Promise<RecordedTurnWrite> {
    const rules = turn.facets.rules.flatMap((r) =>
      r.outcome === 'passed'
        ? [r.code, `${r.code}:passed`]
        : r.outcome === 'blocked'
          ? [r.code, `${r.code}:fired`, `${r.code}:blocked`]
          : [r.code, `${r.code}:fired`],
    );
    const items = turnItems(turn);
    const interaction = [
      turn.interactionId,
      turn.organizationId,
      turn.projectId,
      turn.agentId,
      turn.threadId,
      turn.source,
      turn.userId,
      JSON.stringify(turn.agentVariables),
      JSON.stringify(turn.trace),
      turn.runtime,
      turn.runtimeBuild,
      turn.versionId,
      turn.revisionId,
      turn.versionTag,
      turn.usage.input_tokens,
      turn.usage.output_tokens,
      turn.usage.cache_read_tokens,
      turn.usage.reasoning_tokens,
      turn.createdAt,
      turn.eventId ?? null,
      turn.facets.tools,
      rules,
      JSON.stringify(turn.facets.params),
      items.length,
      turn.latencyMs,
      turn.declined,
    ];
    const itemValues = items.flatMap((item) => [
      item.id,
      item.kind,
      item.authorId,
      item.text,
      item.imageUrl,
      item.content && JSON.stringify(item.content),
    ]);
    if (turn.handoff) return this.writeHandoffTurn(turn, interaction, itemValues, items.length);
    if (turn.newThread) {
      await this.sql.rows(
        `WITH thread AS (
           INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                                tools, rules, params, interaction_count, last_interaction_at, last_item_seq, created_at, updated_at)
           VALUES ($5, $2, $3, $4, $7, $27, $28, $10, $14, $21, $22, $23::jsonb, 1, $19, $24, $19, $19)
           RETURNING id
         ), items AS (${insertItems('0', 29, items.length)})
         INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues('1')})`,
        [...interaction, turn.newThread.externalId, turn.newThread.title, ...itemValues],
        `turn_insert_new_thread_${items.length}`,
      );
      return { handedOff: null };
    }
    await this.sql.rows(
      `WITH thread AS (
         UPDATE threads
            SET version_tag = $14, runtime = $10, interaction_count = interaction_count + 1,
                tools = ARRAY(SELECT DISTINCT unnest(tools || $21::text[])),
                rules = ARRAY(SELECT DISTINCT unnest(rules || $22::text[])),
                params = params || $23::jsonb, last_interaction_at = $19, updated_at = $19, last_item_seq = last_item_seq + $24
          WHERE id = $5
          RETURNING last_item_seq - $24 AS base
       ), items AS (${insertItems('thread.base', 27, items.length)})
       INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues(NEXT_SEQ)})`,
      [...interaction, ...itemValues],
      `turn_insert_existing_thread_${items.length}`,
    );
    return { handedOff: null };
  }

  /**
   * A turn that asks for a human: the same single statement, which also moves the thread from `agent` to `pending`
   * (compare-and-set: a thread already handed over stays as it is, and its control note is not written) — the note,
   * last of the turn's items, is numbered only when the change happened. A new thread starts `pending`.
   */
  private async writeHandoffTurn(
    turn: TurnRecord,
    interaction: unknown[],
    itemValues: unknown[],
    count: number,
  ): Promise<RecordedTurnWrite> {
    const reason = turn.handoff!.reason;
    if (turn.newThread) {
      const rows = await this.sql.rows<{ note_seq: number }>(
        `WITH thread AS (
           INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                                tools, rules, params, interaction_count, last_interaction_at, last_item_seq, created_at, updated_at,
                                control, handoff_reason, handoff_requested_at)
           VALUES ($5, $2, $3, $4, $7, $27, $28, $10, $14, $21, $22, $23::jsonb, 1, $19, $24, $19, $19, 'pending', $29, $19)
           RETURNING id
         ), items AS (${insertItems('0', 30, count)})
         INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues('1')}) RETURNING $24::integer AS note_seq`,
        [...interaction, turn.newThread.externalId, turn.newThread.title, reason, ...itemValues],
        `turn_insert_new_thread_handoff_${count}`,
      );
      return { handedOff: { noteSeq: Number(rows[0]!.note_seq) } };
    }
    // In SET, columns are the row before the update: `control = 'agent'` is the compare of the compare-and-set.
    const rows = await this.sql.rows<{ handed_off: boolean; note_seq: number }>(
      `WITH thread AS (
         UPDATE threads
            SET version_tag = $14, runtime = $10, interaction_count = interaction_count + 1,
                tools = ARRAY(SELECT DISTINCT unnest(tools || $21::text[])),
                rules = ARRAY(SELECT DISTINCT unnest(rules || $22::text[])),
                params = params || $23::jsonb, last_interaction_at = $19, updated_at = $19,
                last_item_seq = last_item_seq + $24 - CASE WHEN control = 'agent' THEN 0 ELSE 1 END,
                control = CASE WHEN control = 'agent' THEN 'pending' ELSE control END,
                handoff_reason = CASE WHEN control = 'agent' THEN $27::varchar(500) ELSE handoff_reason END,
                handoff_requested_at = CASE WHEN control = 'agent' THEN $19 ELSE handoff_requested_at END,
                handoff_accepted_at = CASE WHEN control = 'agent' THEN NULL ELSE handoff_accepted_at END,
                handoff_released_at = CASE WHEN control = 'agent' THEN NULL ELSE handoff_released_at END,
                handoff_timed_out_at = CASE WHEN control = 'agent' THEN NULL ELSE handoff_timed_out_at END
          WHERE id = $5
          RETURNING control = 'pending' AND handoff_requested_at = $19 AS handed_off, last_item_seq
       ), base AS (
         SELECT handed_off, last_item_seq - $24 + CASE WHEN handed_off THEN 0 ELSE 1 END AS base FROM thread
       ), items AS (${insertItems('(SELECT base FROM base)', 28, count, ` WHERE x.kind <> 'note' OR (SELECT handed_off FROM base)`)})
       INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues(NEXT_SEQ)})
       RETURNING (SELECT handed_off FROM base) AS handed_off, (SELECT base FROM base) + $24 AS note_seq`,
      [...interaction, reason, ...itemValues],
      `turn_insert_existing_thread_handoff_${count}`,
    );
    const row = rows[0]!;
    return { handedOff: row.handed_off ? { noteSeq: Number(row.note_seq) } : null };
  }

  /**
   * Changes a thread's control by compare-and-set and writes its note, in one statement: the thread's row is locked,
   * the change applies only from the state `CONTROL_CHANGES` allows, and the note takes the next item number. Undefined
   * when the thread is not the organization's or is not in a state the change starts from.
   */
  async changeControl(write: ControlWrite): Promise<ControlChanged | undefined> {
    const { from, set } = CONTROL_CHANGES[write.change];
    const row = await this.sql.one<ThreadControlRow & { previous: ThreadControl }>(
      `WITH p AS (
         SELECT $3::timestamptz AS at, $4::char(24) AS operator, $5::varchar(500) AS reason, $6::timestamptz AS since,
                $7::varchar(8) AS timeout_to
       ), old AS (
         SELECT id, control, assignee_id, handoff_requested_at, handoff_timed_out_at FROM threads
          WHERE id = $1 AND organization_id = $2 FOR UPDATE
       ), changed AS (
         UPDATE threads t SET ${set}, last_item_seq = t.last_item_seq + 1, updated_at = p.at
           FROM old, p WHERE t.id = old.id AND ${from}
         RETURNING t.*, old.control AS previous
       ), note AS (
         INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
         SELECT $8::char(24), t.organization_id, t.id, t.last_item_seq, NULL, 'note', $4, $9::text, NULL, $10::json, $3 FROM changed t
       )
       SELECT ${CONTROL_COLUMNS}, t.previous FROM changed t`,
      [
        write.threadId.toLowerCase(),
        write.organizationId,
        write.at,
        write.userId,
        write.reason,
        write.since ?? null,
        write.timeoutTo ?? null,
        write.noteId,
        write.message,
        JSON.stringify({ change: write.change, reason: write.reason, assignee_id: write.userId }),
      ],
      `threads_control_${write.change}`,
    );
    if (!row) return undefined;
    const { previous, ...thread } = row;
    return { thread, previous };
  }

  /**
   * Writes a message outside a turn, by compare-and-set on the thread's control in the same statement: an operator's
   * only while that operator holds the thread, an end user's only while the thread is not under agent control.
   * Undefined when the thread is not the organization's (the agent's) or its control does not allow it.
   */
  appendMessage(write: MessageWrite): Promise<ThreadControlRow | undefined> {
    const operator = write.kind === 'operator';
    const values = [
      write.threadId.toLowerCase(),
      write.organizationId,
      write.id,
      write.turnId,
      write.authorId,
      write.kind,
      write.text,
      write.imageUrl,
      write.at,
    ];
    return this.sql.one<ThreadControlRow>(
      `WITH t AS (
         UPDATE threads SET last_item_seq = last_item_seq + 1, updated_at = $9
          WHERE id = $1 AND organization_id = $2 AND ${operator ? `control = 'human' AND assignee_id = $5` : `control <> 'agent' AND agent_id = $10`}
         RETURNING *
       ), item AS (
         INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
         SELECT $3::char(24), t.organization_id, t.id, t.last_item_seq, $4::char(24), $6::varchar(16), $5::varchar(255), $7::text,
                $8::text, NULL, $9 FROM t
       )
       SELECT ${CONTROL_COLUMNS} FROM t`,
      operator ? values : [...values, write.agentId],
      `threads_append_${write.kind}`,
    );
  }

  /** The turn written for an event, if any (of `organizationId` when given). */
  turnForEvent(eventId: string, organizationId: string | null): Promise<RecordedTurn | undefined> {
    return this.sql.one<RecordedTurn>(
      `SELECT i.id, i.thread_id, r.text AS reply_text, r.content AS reply
         FROM interactions i
         CROSS JOIN LATERAL (SELECT text, content FROM thread_items
                              WHERE thread_id = i.thread_id AND turn_id = i.id AND kind = 'agent' ORDER BY seq DESC LIMIT 1) r
        WHERE i.event_id = $1 AND ($2::text IS NULL OR i.organization_id = $2)`,
      [eventId, organizationId],
      'conversations_turn_for_event',
    );
  }

  /**
   * The agent's thread's title and its first `limit` turns in order, each with its end-user text, variables, trace and
   * reply (for a test case made from it); undefined when the agent has no such thread.
   */
  async recordedTurns(
    organizationId: string,
    agentId: string,
    threadId: string,
    limit: number,
  ): Promise<{ title: string; turns: RecordedTurnRow[] } | undefined> {
    const row = await this.sql.one<{ title: string; turns: RecordedTurnRow[] | null }>(
      `SELECT t.title,
              (SELECT json_agg(x ORDER BY x.seq) FROM (
                 SELECT i.seq, i.source, i.agent_variables, i.trace,
                        (SELECT text FROM thread_items WHERE thread_id = t.id AND turn_id = i.id AND kind = 'end_user' LIMIT 1) AS user_text,
                        (SELECT content FROM thread_items WHERE thread_id = t.id AND turn_id = i.id AND kind = 'agent'
                          ORDER BY seq DESC LIMIT 1) AS reply
                   FROM interactions i WHERE i.thread_id = t.id ORDER BY i.seq LIMIT $4) x) AS turns
         FROM threads t
        WHERE t.id = $1 AND t.organization_id = $2 AND t.agent_id = $3`,
      [threadId.toLowerCase(), organizationId, agentId, limit],
      'conversations_recorded_turns',
    );
    return row && { title: row.title, turns: row.turns ?? [] };
  }

  /** An agent reply item of the agent's threads, with its thread's end user and the turn's version; undefined otherwise. */
  agentMessage(organizationId: string, agentId: string, messageId: string): Promise<AgentMessageRow | undefined> {
    return this.sql.one<AgentMessageRow>(
      `SELECT it.id, it.thread_id, t.project_id, it.turn_id AS interaction_id, t.user_id, i.version_id, i.version_tag,
              i.created_at AS turn_created_at
         FROM thread_items it
         JOIN threads t ON t.id = it.thread_id
         JOIN interactions i ON i.id = it.turn_id
        WHERE it.id = $1 AND it.organization_id = $2 AND it.kind = 'agent' AND t.agent_id = $3`,
      [messageId.toLowerCase(), organizationId, agentId],
      'conversations_agent_message',
    );
  }

  threadByExternalId(organizationId: string, agentId: string, externalId: string): Promise<ExternalThread | undefined> {
    return this.sql.one<ExternalThread>(
      `SELECT id, channel FROM threads WHERE agent_id = $1 AND external_id = $2 AND organization_id = $3`,
      [agentId, externalId, organizationId],
      'conversations_thread_by_external_id',
    );
  }

  /** A thread with no turn yet (a channel conversation's opening message is the channel's own). */
  async createThread(thread: NewThread): Promise<void> {
    const createdAt = thread.createdAt ?? new Date();
    await this.sql.rows(
      `INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                            tools, rules, params, channel, phone_number, sender_id, sender_number, agent_display_name,
                            interaction_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, 0, $18, $18)`,
      [
        thread.id,
        thread.organizationId,
        thread.projectId,
        thread.agentId,
        thread.userId,
        thread.externalId,
        thread.title,
        thread.runtime,
        thread.versionTag,
        thread.facets?.tools ?? [],
        thread.facets?.rules ?? [],
        JSON.stringify(thread.facets?.params ?? {}),
        thread.channel?.channel ?? null,
        thread.channel?.phoneNumber ?? null,
        thread.channel?.senderId ?? null,
        thread.channel?.senderNumber ?? null,
        thread.channel?.agentDisplayName ?? null,
        createdAt,
      ],
      'conversations_create_thread',
    );
  }

  /** A channel thread by id (of the agent on that channel when given). */
  channelThread(
    threadId: string,
    owner?: { organizationId: string; agentId: string; channel: string },
  ): Promise<ChannelThread | undefined> {
    if (!owner) {
      return this.sql.one<ChannelThread>(`SELECT ${CHANNEL_THREAD_COLUMNS} FROM threads WHERE id = $1 AND channel IS NOT NULL`, [threadId]);
    }
    return this.sql.one<ChannelThread>(
      `SELECT ${CHANNEL_THREAD_COLUMNS} FROM threads WHERE id = $1 AND organization_id = $2 AND agent_id = $3 AND channel = $4`,
      [threadId.toLowerCase(), owner.organizationId, owner.agentId, owner.channel],
      'conversations_channel_thread',
    );
  }

  /**
   * For each organization, its latest open channel thread between the two numbers (open: its agent and project are
   * not deleted). A number exactly one organization connected as a sender, and that is not a shared platform
   * default, belongs to that organization: only its threads count, whatever other organizations once did with the
   * number. Otherwise the number is shared and every organization's thread counts; the caller decides.
   */
  channelConversations(channel: string, senderNumber: string, phoneNumber: string, platformDefault: boolean): Promise<ChannelThread[]> {
    return this.sql.rows<ChannelThread>(
      `WITH owners AS (SELECT organization_id FROM senders WHERE channel = $1 AND phone_number = $2)
       SELECT DISTINCT ON (t.organization_id) t.id, t.organization_id, t.agent_id, t.user_id, t.external_id, t.channel, t.phone_number,
              t.sender_id, t.sender_number
         FROM threads t
         JOIN agents a ON a.id = t.agent_id AND a.deleted_at IS NULL
         JOIN projects p ON p.id = a.project_id AND p.deleted_at IS NULL
        WHERE t.channel = $1 AND t.sender_number = $2 AND t.phone_number = $3
          AND ($4 OR (SELECT count(*) FROM owners) <> 1 OR t.organization_id IN (SELECT organization_id FROM owners))
        ORDER BY t.organization_id, t.created_at DESC, t.id DESC`,
      [channel, senderNumber, phoneNumber, platformDefault],
      'channel_find_conversations',
    );
  }

  /**
   * The share of threads carrying each common tool and rule entry, from `pg_stats` (what ANALYZE sampled; values
   * not listed are rarer than every listed one). A column without statistics (never analyzed) has no entry.
   */
  async facetShares(): Promise<Partial<Record<'tools' | 'rules', Map<string, number>>>> {
    const shares: Partial<Record<'tools' | 'rules', Map<string, number>>> = {};
    const rows = await this.sql.rows<{ attname: 'tools' | 'rules'; elems: string[] | null; freqs: number[] | null }>(
      `SELECT attname, most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
         FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'threads' AND attname IN ('tools', 'rules')`,
      [],
      'threads_facet_stats',
    );
    for (const row of rows) shares[row.attname] = new Map((row.elems ?? []).map((elem, i) => [elem, row.freqs?.[i] ?? 0]));
    return shares;
  }

  /**
   * One page of list items; `where` are conditions on `threads t` whose values are in `params`. With
   * `unordered`, the sort key is written as an expression no index provides, so the plan cannot walk a
   * created_at index and sorts the (small) set a rare facet's posting list yields instead; same order, same cursors.
   */
  listThreads<T>(
    where: string[],
    params: SqlParams,
    query: PageQuery,
    request: PageRequest,
    toItem: (row: ThreadItemRow) => T,
    unordered: boolean,
  ): Promise<Page<T>> {
    return paginateSql<ThreadItemRow & Record<string, unknown>, T>(
      this.sql,
      {
        select:
          'SELECT t.id, t.title, t.created_at, t.version_tag, t.agent_id, t.user_id, t.external_id, t.control, t.assignee_id FROM threads t',
        where,
        params,
      },
      query,
      byCreatedAt('t', 'desc', unordered ? `(t.created_at + interval '0 seconds')` : 't.created_at'),
      request,
      toItem,
    );
  }

  /**
   * Threads waiting for or held by an operator, oldest request first (ix_threads_inbox): `control` narrows to one
   * state, `assignee` to one operator's threads.
   */
  inbox<T>(
    organizationId: string,
    filter: { control?: 'pending' | 'human'; assignee?: string },
    query: PageQuery,
    request: PageRequest,
    toItem: (row: InboxRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    const where = [`t.organization_id = ${params.add(organizationId)}`, `t.control <> 'agent'`];
    if (filter.control) where.push(`t.control = ${params.add(filter.control)}`);
    if (filter.assignee) where.push(`t.assignee_id = ${params.add(filter.assignee)}`);
    return paginateSql<InboxRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT t.id, t.title, t.created_at, t.version_tag, t.agent_id, t.user_id, t.external_id, t.control, t.assignee_id,
                        t.project_id, t.channel, t.handoff_reason, t.handoff_requested_at, t.handoff_accepted_at FROM threads t`,
        where,
        params,
      },
      query,
      {
        sortColumns: { requested_at: 't.handoff_requested_at' },
        idColumn: 't.id',
        sortValue: (row) => row.handoff_requested_at!.toISOString(),
        sortKinds: { requested_at: 'timestamp' },
        rowId: (row) => row.id,
        defaultSort: 'requested_at',
        defaultOrder: 'asc',
      },
      request,
      toItem,
    );
  }

  findThread(organizationId: string, threadId: string): Promise<ThreadRow | undefined> {
    return this.sql.one<ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1 AND organization_id = $2`,
      [threadId.toLowerCase(), organizationId],
      'threads_find',
    );
  }

  renameThread(organizationId: string, threadId: string, runtime: 'v1' | 'v2', title: string): Promise<ThreadRow | undefined> {
    return this.sql.one<ThreadRow>(
      `UPDATE threads SET title = $4, updated_at = now()
        WHERE id = $1 AND organization_id = $2 AND runtime = $3
       RETURNING ${THREAD_COLUMNS}`,
      [threadId.toLowerCase(), organizationId, runtime, title],
      'threads_rename',
    );
  }

  /**
   * The transcript: the thread's end-user and agent items in thread order, each with the turn that produced it (its
   * version tag and tokens); `position` (the item's seq) is the keyset column. A page reads at most `size + 1` items from
   * the cursor's position on, through uq_thread_items_thread_seq, so its cost does not grow with the thread.
   */
  messages<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: MessageRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    const thread = params.add(threadId);
    const select = (plan: KeysetPlan) => {
      // Positions are unique in a thread: the cursor's item itself is excluded here already.
      const from = plan.cursor ? ` AND seq ${plan.comparison} ${params.add(Math.floor(Number(plan.cursor.value)))}` : '';
      // Items no engine turn produced (operator messages, control notes, end-user messages while a human held the
      // thread) have no turn row: their turn columns are null.
      return `SELECT m.id, m.role, m.text, m.created_at, m.interaction_id, m.author_id, m.image_url, m.reply, m.version_tag,
             m.input_tokens, m.output_tokens, m.position
        FROM (SELECT it.id, CASE it.kind WHEN 'end_user' THEN 'user' ELSE it.kind END AS role, it.text, it.created_at,
                     it.turn_id AS interaction_id, it.author_id, it.image_url, it.content AS reply, i.version_tag, i.input_tokens,
                     i.output_tokens, it.seq AS position
                FROM (SELECT id, seq, kind, text, image_url, content, created_at, turn_id, author_id FROM thread_items
                       WHERE thread_id = ${thread} AND kind IN ('end_user', 'agent', 'operator', 'note')${from}
                       ORDER BY seq ${plan.direction} LIMIT ${plan.size + 1}) it
                LEFT JOIN interactions i ON i.id = it.turn_id) m`;
    };
    return paginateSql<MessageRow & Record<string, unknown>, T>(
      this.sql,
      { select, where: [], params },
      query,
      {
        sortColumns: { created_at: 'm.position' },
        idColumn: 'm.id',
        sortValue: (row) => Number(row.position),
        sortKinds: { created_at: 'number' },
        rowId: (row) => row.id,
        defaultSort: 'created_at',
        defaultOrder: 'asc',
      },
      request,
      toItem,
    );
  }

  traces<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: TraceRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<TraceRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: 'SELECT i.id, i.thread_id, i.agent_id, i.runtime, i.trace, i.version_id, i.version_tag, i.created_at FROM interactions i',
        where: [`i.thread_id = ${params.add(threadId)}`],
        params,
      },
      query,
      byCreatedAt('i', 'asc'),
      request,
      toItem,
    );
  }

  trace(organizationId: string, interactionId: string): Promise<TraceRow | undefined> {
    return this.sql.one<TraceRow>(
      `SELECT id, thread_id, agent_id, runtime, trace, version_id, version_tag, created_at FROM interactions WHERE id = $1 AND organization_id = $2`,
      [interactionId.toLowerCase(), organizationId],
      'traces_find_interaction',
    );
  }

  /**
   * Locks (in the caller's transaction) up to `limit` threads of the selection. Erasure waits for a turn being
   * written to the thread (its transaction is short); retention skips such threads (`SKIP LOCKED`): the turn
   * just made them active, and the next run sees them again. A locked thread cannot gain an interaction: the
   * interaction's foreign-key check needs a key-share lock on the thread.
   */
  async lockThreads(selection: ThreadSelection, limit: number): Promise<string[]> {
    const rows =
      selection.kind === 'thread'
        ? await this.sql.rows<{ id: string }>(
            `SELECT id FROM threads WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
            [selection.threadId.toLowerCase(), selection.organizationId],
            'threads_delete_lock_one',
          )
        : selection.kind === 'user'
          ? await this.sql.rows<{ id: string }>(
              `SELECT id FROM threads WHERE organization_id = $1 AND user_id = $2 LIMIT $3 FOR UPDATE`,
              [selection.organizationId, selection.userId, limit],
              'threads_delete_lock_user',
            )
          : await this.sql.rows<{ id: string }>(
              `SELECT id FROM threads WHERE project_id = $1 AND COALESCE(last_interaction_at, created_at) < $2
                LIMIT $3 FOR UPDATE SKIP LOCKED`,
              [selection.projectId, selection.before, limit],
              'threads_delete_lock_expired',
            );
    return rows.map((row) => row.id);
  }

  /**
   * Deletes locked threads (`lockThreads`, same transaction) with everything that cascades from them (interactions,
   * channel messages). Their interactions' usage moves to `usage_erased` first, at its own millisecond, so usage
   * answers do not change (no DELETE trigger on interactions: usage_daily keeps its days). `recentSince`: interactions
   * created after it are returned by id (their stream replay buffers may still exist).
   */
  async deleteThreads(threadIds: string[], recentSince: Date): Promise<DeletedThreads> {
    if (threadIds.length === 0) return { threads: [], interactionCount: 0, recentInteractionIds: [] };
    const row = await this.sql.one<{
      threads: Array<{ id: string; organization_id: string }> | null;
      interaction_count: string;
      recent: string[] | null;
    }>(
      `WITH gone AS (
         SELECT id, organization_id, project_id, agent_id, version_tag, created_at,
                input_tokens, output_tokens, cache_read_tokens, reasoning_tokens
           FROM interactions WHERE thread_id = ANY($1::char(24)[])
       ), erased AS (
         INSERT INTO usage_erased (organization_id, project_id, agent_id, version_tag, created_at, interaction_count,
                                   input_tokens, output_tokens, cache_read_tokens, reasoning_tokens)
         SELECT organization_id, project_id, agent_id, version_tag, created_at, ${INTERACTION_SUMS}
           FROM gone GROUP BY organization_id, project_id, agent_id, version_tag, created_at
       ), deleted AS (
         DELETE FROM threads WHERE id = ANY($1::char(24)[]) RETURNING id, organization_id
       )
       SELECT (SELECT json_agg(deleted) FROM deleted) AS threads,
              (SELECT count(*) FROM gone) AS interaction_count,
              (SELECT array_agg(id) FROM gone WHERE created_at > $2) AS recent`,
      [threadIds, recentSince],
      'threads_delete',
    );
    return {
      threads: (row?.threads ?? []).map((t) => ({ id: t.id, organizationId: t.organization_id })),
      interactionCount: Number(row?.interaction_count ?? 0),
      recentInteractionIds: row?.recent ?? [],
    };
  }

  /**
   * Usage sums over an agent or a project: whole days from the `usage_daily` roll-up (kept by a trigger on
   * interactions, migration 1732240400000), partial days from interactions through their (scope, created_at) indexes
   * plus the deleted interactions' sums in `usage_erased` (migration 1732242100000).
   */
  async usage(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan): Promise<UsageSums> {
    const row = (await this.usageRows(scope, id, plan, false))[0];
    return row ?? { interaction_count: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
  }

  /** The same sums per revision tag that answered (`usage_daily` is keyed by it, migration 1732241900000), largest count first. */
  usageByVersion(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan): Promise<Array<UsageSums & { version_tag: string }>> {
    return this.usageRows(scope, id, plan, true) as Promise<Array<UsageSums & { version_tag: string }>>;
  }

  private async usageRows(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan, byVersion: boolean): Promise<UsageSums[]> {
    const p = new SqlParams();
    const key = p.add(id);
    const tag = byVersion ? 'version_tag, ' : '';
    const groupBy = byVersion ? ' GROUP BY version_tag' : '';
    const parts: string[] = [];
    if (plan.days) {
      const where = [`${scope} = ${key}`];
      if (plan.days.start) where.push(`day >= ${p.add(plan.days.start)}::date`);
      if (plan.days.end) where.push(`day < ${p.add(plan.days.end)}::date`);
      parts.push(`SELECT ${tag}sum(interaction_count), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)
                    FROM usage_daily WHERE ${where.join(' AND ')}${groupBy}`);
    }
    const ranges = [
      plan.head && { from: plan.head.from, op: '<', to: plan.head.before },
      plan.tail && { from: plan.tail.from, op: '<=', to: plan.tail.to },
      plan.direct && { from: plan.direct.from, op: '<=', to: plan.direct.to },
    ];
    for (const range of ranges) {
      if (!range) continue;
      const from = p.add(range.from);
      const to = p.add(range.to);
      parts.push(`SELECT ${tag}${INTERACTION_SUMS} FROM interactions
                   WHERE ${scope} = ${key} AND created_at >= ${from} AND created_at ${range.op} ${to}${groupBy}`);
      // Deleted interactions (retention, erasure) still count: their sums wait in usage_erased at their own instant.
      parts.push(`SELECT ${tag}sum(interaction_count), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)
                    FROM usage_erased WHERE ${scope} = ${key} AND created_at >= ${from} AND created_at ${range.op} ${to}${groupBy}`);
    }
    const columns = byVersion ? 'version_tag, n, i, o, c, r' : 'n, i, o, c, r';
    const rows = await this.sql.rows<UsageSums>(
      `SELECT ${tag}sum(n) AS interaction_count, sum(i) AS input_tokens, sum(o) AS output_tokens, sum(c) AS cache_read_tokens, sum(r) AS reasoning_tokens
         FROM (${parts.join(' UNION ALL ')}) AS s(${columns})${groupBy}${byVersion ? ' HAVING sum(n) <> 0 ORDER BY sum(n) DESC, version_tag' : ''}`,
      p.values,
    );
    return rows;
  }
}
