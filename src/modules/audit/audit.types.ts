import type { ChangeActor } from '../../common/bus/event-map.js';

/** Who made a change: the request's principal, or the service itself (a scheduled job) on an organization's behalf. */
export type AuditActor = ChangeActor;

/** One change to record. `action` is `<resource>.<verb>` (`project.create`, `version.publish`). */
export interface AuditEntry {
  action: string;
  resourceType: string;
  resourceId: string;
  /** Small summaries: changed fields and their values, ids and digests, never secrets or bundle contents. */
  before?: object | null;
  after?: object | null;
}

/** The wire names of the actor kinds: the credential names of the spec (see `Credential`), plus `system`. */
export const ACTOR_KINDS = ['org_api_key', 'session', 'agent_session', 'agent_api_key', 'client_token', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface ActorColumns {
  actorKind: ActorKind;
  actorId: string;
  actorUserId: string | null;
}

/** The actor fields of a record: credential kind and id, and the user of a login session. */
export function actorColumns(actor: AuditActor): ActorColumns {
  switch (actor.kind) {
    case 'orgKey':
      return { actorKind: 'org_api_key', actorId: actor.keyId, actorUserId: null };
    case 'agentKey':
      return { actorKind: 'agent_api_key', actorId: actor.keyId, actorUserId: null };
    case 'clientToken':
      return { actorKind: 'client_token', actorId: actor.publishableKeyId, actorUserId: null };
    case 'session':
      return { actorKind: actor.agentId ? 'agent_session' : 'session', actorId: actor.userId, actorUserId: actor.userId };
    case 'system':
      return { actorKind: 'system', actorId: actor.name, actorUserId: null };
  }
}
