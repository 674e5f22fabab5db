/**
 * What modules tell each other, by name. Payloads are plain JSON (strings, numbers, nulls, arrays) so that a
 * broadcast event crosses processes unchanged. docs/architecture.md ("Event map") lists emitters and listeners.
 */

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
 * Threads were deleted (committed): erasure of one thread or of an end user's threads, or a retention batch.
 * `interactionIds`: the deleted interactions recent enough to still have a stream replay buffer.
 */
export interface ThreadsDeleted {
  organizationId: string;
  threadIds: string[];
  interactionIds: string[];
  reason: 'erasure' | 'retention';
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

export interface EventMap {
  'agent.live_changed': LiveRevisionChange;
  /** A revision went live through this process (publish, or a rename's re-publish): follow-up work runs once, here. */
  'version.published': LiveRevisionChange;
  'credential.revoked': CredentialRevoked;
  'project.deleted': ProjectDeleted;
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
