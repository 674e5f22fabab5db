import { newId } from '../../src/common/ids/new-id.js';
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
 * A thread row written with SQL, as the messaging turn writes it, for facet variety the engines would take many
 * sends to produce (read-side tests). Real sends cover the rest.
 */
export async function insertThread(t: TestApp, owner: ThreadOwner, seed: ThreadSeed = {}): Promise<string> {
  const createdAt = seed.createdAt ?? new Date();
  const id = newId(createdAt.getTime());
  await t.dataSource.query(
    `INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                          tools, rules, params, interaction_count, last_interaction_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, 0, NULL, $13, $13)`,
    [
      id,
      owner.organizationId,
      owner.projectId,
      owner.agentId,
      seed.userId ?? 'user-1',
      seed.externalId ?? null,
      seed.title ?? `Thread ${id.slice(-4)}`,
      seed.runtime ?? 'v1',
      seed.versionTag ?? 'v1.0',
      seed.tools ?? [],
      seed.rules ?? [],
      JSON.stringify(seed.params ?? {}),
      createdAt,
    ],
  );
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

/** An interaction row written with SQL (one turn: user message, reply, trace, tokens) on an existing thread. */
export async function insertInteraction(t: TestApp, owner: ThreadOwner, threadId: string, seed: InteractionSeed = {}): Promise<string> {
  const createdAt = seed.createdAt ?? new Date();
  const id = newId(createdAt.getTime());
  const runtime = seed.runtime ?? 'v1';
  await t.dataSource.query(
    `INSERT INTO interactions (id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, user_message_id, user_text,
                               image_url, agent_variables, reply_message_id, reply_text, reply, trace, runtime, runtime_build,
                               version_id, revision_id, version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at)
     VALUES ($1, $2, $3, $4, $5, (SELECT COALESCE(max(seq), 0) + 1 FROM interactions WHERE thread_id = $5), 'api', 'user-1', $6, $7,
             NULL, '{}', $8, $9, '{"cards": [], "followup_suggestions": [], "url": ""}', $10::jsonb, $11, $12,
             $13, $13, 'v1.0', $14, $15, $16, $17, $18)`,
    [
      id,
      owner.organizationId,
      owner.projectId,
      owner.agentId,
      threadId,
      newId(),
      seed.userText === undefined ? 'hello' : seed.userText,
      newId(),
      seed.replyText ?? 'hi',
      JSON.stringify(seed.trace ?? { runtime }),
      runtime,
      runtime === 'v1' ? '1.0.0' : '2.0.0',
      newId(),
      seed.inputTokens ?? 0,
      seed.outputTokens ?? 0,
      seed.cacheReadTokens ?? 0,
      seed.reasoningTokens ?? 0,
      createdAt,
    ],
  );
  return id;
}
