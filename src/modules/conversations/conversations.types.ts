import type { TurnRecorded } from '../../common/bus/event-map.js';
import type { TurnFacets } from '../runtime/runtime.types.js';
import type { Trace } from '../runtime/trace.types.js';

/**
 * The shapes the conversation store reads and writes: `threads`, their ordered items (`thread_items`) and the turns
 * (`interactions`) that group the items they produced with one trace and one usage record (docs/conversation-core.md).
 */

/** How many earlier turns the engine sees as history. */
export const HISTORY_TURNS = 6;

/**
 * What a thread item is. `end_user` and `agent` messages are what turns write today; `operator` messages (a human
 * holding the thread), `tool_step` items (agent mode, between the question and the answer) and `note`s have their
 * place in the schema for the issues that write them.
 */
export type ItemKind = 'end_user' | 'agent' | 'operator' | 'tool_step' | 'note';

/** One item to write; its position in the thread is given by the store, in write order. */
export interface NewItem {
  id: string;
  kind: ItemKind;
  /** Who wrote it: the end user's id, an operator's user id; null for the agent. */
  authorId: string | null;
  text: string | null;
  imageUrl: string | null;
  /** The rest of the message: an agent reply's cards, suggestions and link; a tool step's call and result. */
  content: Record<string, unknown> | null;
}

/** A thread as a turn needs it: who it belongs to and its recent history. */
export interface ThreadState {
  id: string;
  userId: string;
  history: Array<{ role: 'user' | 'agent'; text: string }>;
  /** The version and revision of the latest turn (null before the first): traffic routing keeps the thread on it. */
  versionId: string | null;
  revisionId: string | null;
  /** The latest end-user turn, for rerun. */
  last: { text: string | null; imageUrl: string | null; agentVariables: Record<string, unknown> } | null;
}

/**
 * One turn to record: what its change event tells the subscribers (`TurnRecorded`: the turn, its thread, the end-user
 * message and the reply) and what only the store keeps: the items' ids and image, the input variables, the trace, the
 * runtime, the revision and the facets. `turnItems` gives the items it produced.
 */
export interface TurnRecord extends TurnRecorded {
  userMessageId: string;
  imageUrl: string | null;
  agentVariables: Record<string, unknown>;
  trace: Record<string, unknown>;
  runtime: 'v1' | 'v2';
  runtimeBuild: string;
  revisionId: string;
  facets: TurnFacets;
}

/** The items a turn produced, in thread order. */
export function turnItems(turn: TurnRecord): NewItem[] {
  const items: NewItem[] = [];
  if (turn.userText !== null || turn.imageUrl !== null) {
    items.push({
      id: turn.userMessageId,
      kind: 'end_user',
      authorId: turn.userId,
      text: turn.userText,
      imageUrl: turn.imageUrl,
      content: null,
    });
  }
  items.push({ id: turn.replyMessageId, kind: 'agent', authorId: null, text: turn.replyText, imageUrl: null, content: turn.reply });
  return items;
}

/** The turn written for an event (events webhook, channel replies): the turn and its reply item. */
export interface RecordedTurn {
  id: string;
  thread_id: string;
  reply_text: string;
  reply: { cards?: unknown[] };
}

export interface ThreadRow {
  id: string;
  organization_id: string;
  project_id: string;
  agent_id: string;
  user_id: string;
  external_id: string | null;
  title: string;
  runtime: 'v1' | 'v2';
  version_tag: string;
  tools: string[];
  rules: string[];
  params: Record<string, unknown>;
  interaction_count: number;
  last_interaction_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type ThreadItemRow = Pick<ThreadRow, 'id' | 'title' | 'created_at' | 'version_tag' | 'agent_id' | 'user_id' | 'external_id'>;

/** One transcript message: an end-user or agent item with the turn that produced it. */
export interface MessageRow {
  id: string;
  role: 'user' | 'agent';
  text: string | null;
  created_at: Date;
  interaction_id: string;
  image_url: string | null;
  reply: Record<string, unknown> | null;
  version_tag: string;
  input_tokens: number;
  output_tokens: number;
  position: number;
}

/** An interaction's trace with what it is addressed by. */
export interface TraceRow {
  id: string;
  thread_id: string;
  agent_id: string;
  runtime: 'v1' | 'v2';
  trace: Trace;
  version_id: string;
  version_tag: string;
  created_at: Date;
}

/** Token sums (PostgreSQL returns bigint sums as strings). */
export interface UsageSums {
  interaction_count: string | number | null;
  input_tokens: string | number | null;
  output_tokens: string | number | null;
  cache_read_tokens: string | number | null;
  reasoning_tokens: string | number | null;
}

/**
 * How a range is answered: whole UTC days from the `usage_daily` roll-up, the partial days at either end from
 * `interactions` itself. `days` is [start, end) as dates (either side open when null); `head` and `tail` are
 * inclusive-exclusive / inclusive instants of the partial stretches; `direct` is set when the range holds no
 * whole day and is answered from interactions alone.
 */
export interface UsagePlan {
  days: { start: string | null; end: string | null } | null;
  head: { from: Date; before: Date } | null;
  tail: { from: Date; to: Date } | null;
  direct: { from: Date; to: Date } | null;
}

/** A thread created before its first turn: a channel conversation (WhatsApp, SMS), or conversations seeded in bulk. */
export interface NewThread {
  id: string;
  organizationId: string;
  projectId: string;
  agentId: string;
  userId: string;
  externalId: string | null;
  title: string;
  runtime: 'v1' | 'v2';
  versionTag: string;
  createdAt?: Date;
  facets?: { tools: string[]; rules: string[]; params: Record<string, unknown> };
  channel?: { channel: string; phoneNumber: string; senderId: string | null; senderNumber: string; agentDisplayName: string | null };
}

/** A thread named by the caller's own id: a channel thread records its channel (`whatsapp`, `sms`), others null. */
export interface ExternalThread {
  id: string;
  channel: string | null;
}

/** A channel thread as channels read it. */
export interface ChannelThread {
  id: string;
  organization_id: string;
  agent_id: string;
  user_id: string;
  external_id: string | null;
  channel: string;
  phone_number: string;
  sender_id: string | null;
  sender_number: string;
}

/**
 * Which threads one deletion batch takes: one thread of an organization, an end user's threads in an organization,
 * or a project's threads whose last activity (last turn, else creation) is before `before`.
 */
export type ThreadSelection =
  | { kind: 'thread'; organizationId: string; threadId: string }
  | { kind: 'user'; organizationId: string; userId: string }
  | { kind: 'expired'; projectId: string; before: Date };

/** What one deletion batch removed (counts and ids, never contents). */
export interface DeletedThreads {
  /** The deleted threads, each with its organization (a batch of `expired` spans one project, so one organization). */
  threads: Array<{ id: string; organizationId: string }>;
  interactionCount: number;
  /** Interactions recent enough that a stream replay buffer may still hold them (older buffers have expired). */
  recentInteractionIds: string[];
}
