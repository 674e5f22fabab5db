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
  'webhook.create': ManagementChange;
  'webhook.update': ManagementChange;
  'webhook.delete': ManagementChange;
  'webhook.rotate_secret': ManagementChange;
  'webhook.redeliver': ManagementChange;
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
  'webhook.create': true,
  'webhook.update': true,
  'webhook.delete': true,
  'webhook.rotate_secret': true,
  'webhook.redeliver': true,
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
]);
