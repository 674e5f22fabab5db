/**
 * The change-event map: what modules tell each other, by name, with each name's payload type. A write site publishes
 * its changes inside its unit of work (`EventBus.publish`); subscribers say whether they run in the transaction (the
 * audit log, the webhook outbox: their rows commit or roll back with the change) or after the commit (caches, the
 * relay to the other processes). Payloads of broadcast events are plain JSON (strings, numbers, nulls, arrays) so
 * that they cross processes unchanged. docs/architecture.md ("Change events") lists publishers and subscribers.
 */

/** Who made a change: a request's credential, or the service itself (a scheduled job) on an organization's behalf. */
export type ChangeActor =
  | { kind: 'clientToken'; organizationId: string; publishableKeyId: string }
  | { kind: 'session'; organizationId: string; userId: string; agentId: string | null }
  | { kind: 'orgKey'; organizationId: string; keyId: string }
  | { kind: 'agentKey'; organizationId: string; keyId: string }
  | { kind: 'system'; organizationId: string; name: string };

/**
 * A management write, published under its audit action (`<resource>.<verb>`): the audit log records each one in the
 * write's transaction. `before`/`after` are small summaries — changed fields, ids and digests, never secrets or
 * bundle contents.
 */
export interface ManagementChange {
  actor: ChangeActor;
  resourceType: string;
  resourceId: string;
  before?: object | null;
  after?: object | null;
}

/** The management writes, by audit action. */
export interface ManagementChangeMap {
  'project.create': ManagementChange;
  'project.update': ManagementChange;
  'project.delete': ManagementChange;
  'agent.create': ManagementChange;
  'agent.update': ManagementChange;
  'agent.delete': ManagementChange;
  'version.create': ManagementChange;
  'version.update': ManagementChange;
  'version.push': ManagementChange;
  'version.publish': ManagementChange;
  'version.archive': ManagementChange;
  'traffic.update': ManagementChange;
  'traffic.delete': ManagementChange;
  'publishable_key.create': ManagementChange;
  'publishable_key.revoke': ManagementChange;
  'agent_api_key.create': ManagementChange;
  'agent_api_key.revoke': ManagementChange;
  'sender.create': ManagementChange;
  'sender.delete': ManagementChange;
  'thread.update': ManagementChange;
  'thread.delete': ManagementChange;
  'thread.takeover': ManagementChange;
  'thread.accept': ManagementChange;
  'thread.release': ManagementChange;
  'thread.operator_message': ManagementChange;
  'webhook.create': ManagementChange;
  'webhook.update': ManagementChange;
  'webhook.delete': ManagementChange;
  'webhook.rotate_secret': ManagementChange;
  'webhook.redeliver': ManagementChange;
  'test_case.create': ManagementChange;
  'test_case.update': ManagementChange;
  'test_case.delete': ManagementChange;
  'evaluation.create': ManagementChange;
  /** A publish (or a traffic split) went ahead with `force=true` past the evaluation gate that refused it. */
  'version.publish_forced': ManagementChange;
  'traffic.update_forced': ManagementChange;
  'agent_secret.put': ManagementChange;
  'agent_secret.delete': ManagementChange;
}

export type ManagementChangeName = keyof ManagementChangeMap;

/** Every management change name, at run time (the compiler keeps the list complete). */
export const MANAGEMENT_CHANGES = Object.keys({
  'project.create': true,
  'project.update': true,
  'project.delete': true,
  'agent.create': true,
  'agent.update': true,
  'agent.delete': true,
  'version.create': true,
  'version.update': true,
  'version.push': true,
  'version.publish': true,
  'version.archive': true,
  'traffic.update': true,
  'traffic.delete': true,
  'publishable_key.create': true,
  'publishable_key.revoke': true,
  'agent_api_key.create': true,
  'agent_api_key.revoke': true,
  'sender.create': true,
  'sender.delete': true,
  'thread.update': true,
  'thread.delete': true,
  'thread.takeover': true,
  'thread.accept': true,
  'thread.release': true,
  'thread.operator_message': true,
  'webhook.create': true,
  'webhook.update': true,
  'webhook.delete': true,
  'webhook.rotate_secret': true,
  'webhook.redeliver': true,
  'test_case.create': true,
  'test_case.update': true,
  'test_case.delete': true,
  'evaluation.create': true,
  'version.publish_forced': true,
  'traffic.update_forced': true,
  'agent_secret.put': true,
  'agent_secret.delete': true,
} satisfies Record<ManagementChangeName, true>) as ManagementChangeName[];

/** Token counts of a turn, as reported. */
export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
}

/** A recorded turn, as its subscribers read it (the conversation store's `TurnRecord` extends it with what it keeps). */
export interface TurnRecorded {
  organizationId: string;
  projectId: string;
  agentId: string;
  threadId: string;
  interactionId: string;
  /** Set when the turn opened its thread. */
  newThread: { title: string; externalId: string | null } | null;
  source: 'api' | 'rerun' | 'event' | 'channel';
  /** The events-webhook event this turn answers (unique: a second write for one event fails). */
  eventId?: string | null;
  userId: string;
  userText: string | null;
  versionId: string;
  versionTag: string;
  usage: TurnUsage;
  replyMessageId: string;
  replyText: string;
  /** The reply's parts beside its text: cards, follow-up suggestions, url, welcome message. */
  reply: Record<string, unknown>;
  createdAt: Date;
}

/** A thread opened before its first turn (a channel conversation). */
export interface ThreadOpened {
  id: string;
  organizationId: string;
  projectId: string;
  agentId: string;
  userId: string;
  externalId: string | null;
  title: string;
  createdAt?: Date;
  channel?: { channel: string };
}

/** An outbound channel message changed status (sent, delivered, undelivered). */
export interface ChannelMessageStatusChanged {
  organizationId: string;
  agentId: string;
  threadId: string;
  messageId: string;
  channel: string;
  status: string;
  error: string | null;
}

/** Who holds a thread (docs/handoff.md). */
export type ThreadControlState = 'agent' | 'pending' | 'human';

/** A thread as handoff events describe it. */
export interface HandoffThread {
  organizationId: string;
  projectId: string;
  agentId: string;
  threadId: string;
  /** The end user. */
  userId: string;
  /** `whatsapp` / `sms` for a channel thread, else null. */
  channel: string | null;
  control: ThreadControlState;
  assignee: string | null;
}

/**
 * A thread's control changed (compare-and-set in the conversation store), published in the change's transaction:
 * a handoff was requested (end user, rule, decline, agent tool), accepted, taken over, released, or timed out.
 */
export interface ThreadControlChanged extends HandoffThread {
  change: 'requested' | 'accepted' | 'takeover' | 'released' | 'timed_out';
  previous: ThreadControlState;
  reason: string | null;
  requestedAt: Date | null;
  acceptedAt: Date | null;
  releasedAt: Date | null;
  /** The control note (an item of the thread): its id, position and the text the end user is shown (null: none). */
  note: { id: string; seq: number; text: string | null };
  at: Date;
}

/**
 * A message written while the thread was not under agent control, published in its write's transaction: an end
 * user's (recorded, no engine ran) or an operator's.
 */
export interface ThreadMessageCreated extends HandoffThread {
  message: {
    id: string;
    seq: number;
    kind: 'end_user' | 'operator';
    authorId: string;
    text: string | null;
    imageUrl: string | null;
    /** The end user's message: the id its 202 answered with; null for an operator's. */
    interactionId: string | null;
    createdAt: Date;
  };
}

/**
 * Broadcast after a handoff change committed: what the live surfaces of every process show (WebSocket sessions
 * following the thread, the thread's and the organization inbox's event streams). `data` is the wire payload of the
 * `message` or `control` event; `audience` `operators` for what only the inbox shows (the end user's own messages).
 */
export interface ThreadLiveUpdate {
  organizationId: string;
  agentId: string;
  threadId: string;
  event: 'message' | 'control';
  audience: 'everyone' | 'operators';
  data: Record<string, unknown>;
}

export type LiveRevisionChangeReason = 'publish' | 'rename' | 'agent_deleted';

/** The agent's live pointer after a committed change (nulls when the agent no longer has a live version). */
export interface LiveRevisionChange {
  organizationId: string;
  agentId: string;
  versionId: string | null;
  revisionId: string | null;
  versionTag: string | null;
  reason: LiveRevisionChangeReason;
}

/** Credentials of an organization were revoked or deleted; `organizationId` null: any organization's may have been. */
export interface CredentialRevoked {
  organizationId: string | null;
}

/** Agents are being deleted (in the deletion's transaction): their owners delete what goes with them (versions, keys). */
export interface AgentsDeleted {
  organizationId: string;
  agentIds: string[];
}

/** A project was deleted (committed), and with it these agents. */
export interface ProjectDeleted {
  organizationId: string;
  projectId: string;
  agentIds: string[];
}

/** An accepted webhook event (or channel message handed over as one) reached its final state. */
export interface EventOutcome {
  eventId: string;
  organizationId: string;
  agentId: string;
  /** The caller's thread id (channels: `<channel>:<thread id>`), when the event named one. */
  externalThreadId: string | null;
  /** The channel of the thread the event continued (a WhatsApp or SMS message handed over as an event); else null. */
  channel: string | null;
}

export interface EventCompleted extends EventOutcome {
  threadId: string;
  interactionId: string;
}

export interface EventFailed extends EventOutcome {
  /** The reason recorded on the event, led by a wire code. */
  error: string;
}

/**
 * An agent's traffic split was set or ended, or one of its versions was archived (committed). A publish that adjusts
 * the split announces `agent.live_changed`, which drops the same cache entry.
 */
export interface TrafficChanged {
  organizationId: string;
  agentId: string;
  reason: 'update' | 'delete' | 'archive';
}

/** A webhook endpoint was disabled by its deliveries: the receiver answered 410, or too many attempts failed in a row. */
export interface WebhookDisabled {
  organizationId: string;
  projectId: string;
  webhookId: string;
  reason: 'gone' | 'consecutive_failures';
  /** Failed attempts in a row when it was disabled. */
  consecutiveFailures: number;
}

/**
 * Threads are being deleted (in the deletion's transaction): erasure of one thread or of an end user's threads, or a
 * retention batch. `interactionIds`: the deleted interactions recent enough to still have a stream replay buffer.
 * `dependents`: rows of other modules about these threads that went with them, by table — an in-transaction
 * subscriber that deletes rows adds their count, which the deletion's audit record reports.
 */
export interface ThreadsDeleted {
  organizationId: string;
  threadIds: string[];
  interactionIds: string[];
  reason: 'erasure' | 'retention';
  dependents: Record<string, number>;
}

/**
 * A login proved a password whose stored hash is of an older scheme or other parameters (auth/passwords.ts): the
 * users table's owner replaces `previousHash` with `passwordHash`, unless the password changed meanwhile.
 */
export interface PasswordRehashed {
  userId: string;
  previousHash: string;
  passwordHash: string;
}

/**
 * Revisions are about to answer an agent's end users (a publish, or a traffic split's arms), published in that change's
 * transaction with the agent row locked: an in-transaction subscriber may refuse, its error rolling the change back
 * (the evaluation gate, docs/evaluations.md). `force`: the caller asked to go ahead anyway (`?force=true`).
 */
export interface RevisionsGoingLive {
  actor: ChangeActor;
  organizationId: string;
  agentId: string;
  /** The agent's `publish_requires_passing_evaluation`. */
  requiresEvaluation: boolean;
  force: boolean;
  change: 'publish' | 'traffic';
  revisions: Array<{ versionId: string; revisionId: string; versionTag: string; digest: string }>;
}

/** An end user rated an agent message (committed in the rating's transaction); `previousRating`: the rating it replaced. */
export interface MessageFeedback {
  organizationId: string;
  projectId: string;
  agentId: string;
  threadId: string;
  messageId: string;
  interactionId: string;
  userId: string;
  versionId: string;
  versionTag: string;
  rating: 'up' | 'down';
  previousRating: 'up' | 'down' | null;
  comment: string | null;
  createdAt: Date;
  /** When the rated message's turn was written: the analytics day it counts in. */
  turnCreatedAt: Date;
}

export interface EventMap extends ManagementChangeMap {
  'turn.recorded': TurnRecorded;
  'thread.opened': ThreadOpened;
  'channel.message.status': ChannelMessageStatusChanged;
  'agent.live_changed': LiveRevisionChange;
  /** A revision went live through this process (publish, or a rename's re-publish): follow-up work runs once, here. */
  'version.published': LiveRevisionChange;
  'credential.revoked': CredentialRevoked;
  'project.deleted': ProjectDeleted;
  'agents.deleted': AgentsDeleted;
  'event.completed': EventCompleted;
  'event.failed': EventFailed;
  'agent.traffic_changed': TrafficChanged;
  'webhook.disabled': WebhookDisabled;
  'threads.deleted': ThreadsDeleted;
  'user.password_rehashed': PasswordRehashed;
  'thread.control_changed': ThreadControlChanged;
  'thread.message_created': ThreadMessageCreated;
  'thread.live': ThreadLiveUpdate;
  'revisions.going_live': RevisionsGoingLive;
  'message.feedback': MessageFeedback;
}

export type BusEventName = keyof EventMap;

/**
 * Events every process of the deployment must hear (caches live in each one): delivered in the emitting process at
 * once and forwarded to the others through Redis pub/sub (BusRelay). `credential.revoked` crosses processes too, but
 * through PostgreSQL NOTIFY, which commits with the revocation itself (auth/credential-changes.ts). The others are
 * handled where they happen (the worker that ran the event).
 */
export const BROADCAST_EVENTS: ReadonlySet<BusEventName> = new Set<BusEventName>([
  'agent.live_changed',
  'project.deleted',
  'agent.traffic_changed',
  'thread.live',
]);
