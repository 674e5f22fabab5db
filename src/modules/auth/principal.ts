/** The credentials of the spec's Authentication table. A route lists the ones it accepts with `@Auth(...)`. */
export enum Credential {
  /** Bearer token from the publishable-key exchange: messaging only, bound to one agent. */
  ClientToken = 'client_token',
  /** Bearer token from a login session: management. */
  Session = 'session',
  /** Bearer token from a login session scoped to an agent at login: messaging as that agent too. */
  AgentSession = 'agent_session',
  /** `x-organization-api-key`: management only. */
  OrgApiKey = 'org_api_key',
  /** `x-agent-api-key`: events webhook only. */
  AgentApiKey = 'agent_api_key',
}

export type Principal =
  | {
      kind: 'clientToken';
      organizationId: string;
      agentId: string;
      publishableKeyId: string;
      /** The key's restrictions, checked on every messaging request (AuthService.authenticateMessagingToken). */
      allowedOrigins: string[];
      allowedIpRanges: string[];
    }
  | { kind: 'session'; organizationId: string; userId: string; agentId: string | null }
  | { kind: 'orgKey'; organizationId: string; keyId: string }
  | { kind: 'agentKey'; organizationId: string; agentId: string; keyId: string };

/** A principal that acts as one agent on the messaging surface. */
export type AgentPrincipal = Principal & { agentId: string };

/** The identity rate limits count against: one bucket per key, user or publishable key. */
export function rateLimitSubject(principal: Principal): string {
  switch (principal.kind) {
    case 'clientToken':
      return `pk:${principal.publishableKeyId}`;
    case 'session':
      return `user:${principal.userId}`;
    case 'orgKey':
      return `ok:${principal.keyId}`;
    case 'agentKey':
      return `ak:${principal.keyId}`;
  }
}

/** The agent a messaging request acts as (the guard has ensured there is one). */
export function actingAgentId(principal: Principal): string {
  if (principal.kind === 'orgKey' || !principal.agentId) throw new Error('This principal does not act as an agent');
  return principal.agentId;
}
