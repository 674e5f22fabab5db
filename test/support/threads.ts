import { newId } from '../../src/common/ids/new-id.js';
import { ConversationsService } from '../../src/modules/conversations/conversations.service.js';
import type { TestApp } from './test-app.js';

/** Where a thread belongs. */
export interface ThreadOwner {
  organizationId: string;
  projectId: string;
  agentId: string;
}

export interface ThreadSeed {
  userId?: string;
  externalId?: string | null;
  title?: string;
  runtime?: 'v1' | 'v2';
  versionTag?: string;
  tools?: string[];
  rules?: string[];
  params?: Record<string, unknown>;
  createdAt?: Date;
}

/**
 * A thread created through the conversation store, with the facet variety the engines would take many sends to
 * produce (read-side tests). Real sends cover the rest.
 */
export async function insertThread(t: TestApp, owner: ThreadOwner, seed: ThreadSeed = {}): Promise<string> {
  const createdAt = seed.createdAt ?? new Date();
  const id = newId(createdAt.getTime());
  await t.app.get(ConversationsService).createThread({
    id,
    ...owner,
    userId: seed.userId ?? 'user-1',
    externalId: seed.externalId ?? null,
    title: seed.title ?? `Thread ${id.slice(-4)}`,
    runtime: seed.runtime ?? 'v1',
    versionTag: seed.versionTag ?? 'v1.0',
    createdAt,
    facets: { tools: seed.tools ?? [], rules: seed.rules ?? [], params: seed.params ?? {} },
  });
  return id;
}

export interface InteractionSeed {
  createdAt?: Date;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  reasoningTokens?: number;
  runtime?: 'v1' | 'v2';
  trace?: Record<string, unknown>;
  /** null: a turn without end-user text (an event run on agent_variables alone). */
  userText?: string | null;
  replyText?: string;
}

/** A turn (user message, reply, trace, tokens) recorded through the conversation store on an existing thread. */
export async function insertInteraction(t: TestApp, owner: ThreadOwner, threadId: string, seed: InteractionSeed = {}): Promise<string> {
  const createdAt = seed.createdAt ?? new Date();
  const id = newId(createdAt.getTime());
  const runtime = seed.runtime ?? 'v1';
  await t.app.get(ConversationsService).recordTurn({
    interactionId: id,
    threadId,
    newThread: null,
    source: 'api',
    ...owner,
    userId: 'user-1',
    userMessageId: newId(),
    userText: seed.userText === undefined ? 'hello' : seed.userText,
    imageUrl: null,
    agentVariables: {},
    replyMessageId: newId(),
    replyText: seed.replyText ?? 'hi',
    reply: { cards: [], followup_suggestions: [], url: '' },
    trace: seed.trace ?? { runtime },
    runtime,
    runtimeBuild: runtime === 'v1' ? '1.0.0' : '2.0.0',
    versionId: newId(),
    revisionId: newId(),
    versionTag: 'v1.0',
    usage: {
      input_tokens: seed.inputTokens ?? 0,
      output_tokens: seed.outputTokens ?? 0,
      cache_read_tokens: seed.cacheReadTokens ?? 0,
      reasoning_tokens: seed.reasoningTokens ?? 0,
    },
    facets: { tools: [], rules: [], params: {} },
    createdAt,
    latencyMs: 0,
    declined: false,
  });
  return id;
}

/**
 * The turns with the messages they produced, under the column names a turn row carried before messages became thread
 * items (`user_text`, `image_url`, `reply_text`, `reply`): `FROM ${TURNS_WITH_MESSAGES}` in tests that read what a
 * send stored.
 */
export const TURNS_WITH_MESSAGES = `(SELECT i.*, u.text AS user_text, u.image_url, a.text AS reply_text, a.content AS reply
    FROM interactions i
    LEFT JOIN thread_items u ON u.turn_id = i.id AND u.kind = 'end_user'
    LEFT JOIN thread_items a ON a.turn_id = i.id AND a.kind = 'agent') interactions`;
