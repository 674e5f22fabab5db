import { Injectable } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { SqlService } from '../../database/sql.service.js';
import type { TokenUsage, TurnFacets } from '../runtime/runtime.types.js';

/** How many earlier turns the engine sees as history. */
export const HISTORY_TURNS = 6;

export interface ThreadState {
  id: string;
  userId: string;
  history: Array<{ role: 'user' | 'agent'; text: string }>;
  /** The latest end-user turn, for rerun. */
  last: { text: string | null; imageUrl: string | null; agentVariables: Record<string, unknown> } | null;
}

export interface TurnRecord {
  interactionId: string;
  threadId: string;
  newThread: { title: string; externalId: string | null } | null;
  source: 'api' | 'rerun' | 'event' | 'channel';
  organizationId: string;
  projectId: string;
  agentId: string;
  userId: string;
  userMessageId: string;
  userText: string | null;
  imageUrl: string | null;
  agentVariables: Record<string, unknown>;
  replyMessageId: string;
  replyText: string;
  reply: Record<string, unknown>;
  trace: Record<string, unknown>;
  runtime: 'v1' | 'v2';
  runtimeBuild: string;
  versionId: string;
  revisionId: string;
  versionTag: string;
  usage: TokenUsage;
  facets: TurnFacets;
  createdAt: Date;
  /** The events-webhook event this turn answers (unique: a second write for one event fails). */
  eventId?: string | null;
}

interface ThreadRow {
  id: string;
  user_id: string;
  history: Array<{ user_text: string | null; reply_text: string; image_url: string | null; agent_variables: Record<string, unknown> }>;
}

const INTERACTION_COLUMNS = `id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, user_message_id, user_text,
  image_url, agent_variables, reply_message_id, reply_text, reply, trace, runtime, runtime_build, version_id, revision_id,
  version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at, event_id`;

// On an existing thread the next seq is computed in the statement; two writers racing on one thread collide
// on uq_interactions_thread_seq and the loser retries with the next number.
const NEXT_SEQ = '(SELECT COALESCE(max(seq), 0) + 1 FROM interactions WHERE thread_id = $5)';
const interactionValues = (seq: string, eventId: string) => `$1, $2, $3, $4, $5, ${seq},
  $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14::json, $15::json, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, ${eventId}`;

/** The unique index that makes an events-webhook turn's write happen at most once per event. */
export const INTERACTION_EVENT_ID_INDEX = 'uq_interactions_event_id';

/**
 * The messaging turn's SQL: one read of the thread with its recent history, one statement that writes the
 * interaction and creates or updates the thread (facets merged) — two round trips per turn, atomic write.
 */
@Injectable()
export class TurnsRepository {
  constructor(private readonly sql: SqlService) {}

  async findThread(organizationId: string, agentId: string, threadId: string): Promise<ThreadState | undefined> {
    const row = await this.sql.one<ThreadRow>(
      `SELECT t.id, t.user_id,
              COALESCE((SELECT json_agg(h ORDER BY h.seq) FROM (
                 SELECT seq, user_text, reply_text, image_url, agent_variables FROM interactions
                  WHERE thread_id = t.id ORDER BY seq DESC LIMIT ${HISTORY_TURNS}) h), '[]'::json) AS history
         FROM threads t
        WHERE t.id = $1 AND t.organization_id = $2 AND t.agent_id = $3`,
      [threadId.toLowerCase(), organizationId, agentId],
      'turn_find_thread',
    );
    if (!row) return undefined;
    const history: ThreadState['history'] = [];
    for (const turn of row.history) {
      if (turn.user_text) history.push({ role: 'user', text: turn.user_text });
      history.push({ role: 'agent', text: turn.reply_text });
    }
    const latest = row.history[row.history.length - 1];
    return {
      id: row.id,
      userId: row.user_id,
      history,
      last: latest ? { text: latest.user_text, imageUrl: latest.image_url, agentVariables: latest.agent_variables } : null,
    };
  }

  async saveTurn(turn: TurnRecord): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.write(turn);
        return;
      } catch (error) {
        const seqTaken = error instanceof DatabaseError && error.code === '23505' && error.constraint === 'uq_interactions_thread_seq';
        if (!seqTaken || attempt >= 5) throw error;
      }
    }
  }

  private write(turn: TurnRecord): Promise<unknown> {
    const rules = turn.facets.rules.flatMap((r) =>
      r.outcome === 'passed'
        ? [r.code, `${r.code}:passed`]
        : r.outcome === 'blocked'
          ? [r.code, `${r.code}:fired`, `${r.code}:blocked`]
          : [r.code, `${r.code}:fired`],
    );
    const interaction = [
      turn.interactionId,
      turn.organizationId,
      turn.projectId,
      turn.agentId,
      turn.threadId,
      turn.source,
      turn.userId,
      turn.userMessageId,
      turn.userText,
      turn.imageUrl,
      JSON.stringify(turn.agentVariables),
      turn.replyMessageId,
      turn.replyText,
      JSON.stringify(turn.reply),
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
    ];
    const facets = [turn.facets.tools, rules, JSON.stringify(turn.facets.params)];
    if (turn.newThread) {
      return this.sql.rows(
        `WITH thread AS (
           INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                                tools, rules, params, interaction_count, last_interaction_at, created_at, updated_at)
           VALUES ($5, $2, $3, $4, $7, $29, $30, $16, $20, $26, $27, $28::jsonb, 1, $25, $25, $25)
         )
         INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues('1', '$31')})`,
        [...interaction, ...facets, turn.newThread.externalId, turn.newThread.title, turn.eventId ?? null],
        'turn_insert_new_thread',
      );
    }
    return this.sql.rows(
      `WITH thread AS (
         UPDATE threads
            SET version_tag = $20, runtime = $16, interaction_count = interaction_count + 1,
                tools = ARRAY(SELECT DISTINCT unnest(tools || $26::text[])),
                rules = ARRAY(SELECT DISTINCT unnest(rules || $27::text[])),
                params = params || $28::jsonb, last_interaction_at = $25, updated_at = $25
          WHERE id = $5
       )
       INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${interactionValues(NEXT_SEQ, '$29')})`,
      [...interaction, ...facets, turn.eventId ?? null],
      'turn_insert_existing_thread',
    );
  }
}
