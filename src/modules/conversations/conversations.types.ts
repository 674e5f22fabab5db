import type { TokenUsage, TurnFacets } from '../runtime/runtime.types.js';
import type { Trace } from '../runtime/trace.types.js';

/** The shapes the conversation store reads and writes (`threads` and `interactions`). */

/** How many earlier turns the engine sees as history. */
export const HISTORY_TURNS = 6;

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

/** One turn to record: the interaction, and the thread it creates or updates (facets merged). */
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

/** The turn written for an event (events webhook, channel replies). */
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

/** One transcript message: an interaction yields the end-user message (when it had text or an image) and the reply. */
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
