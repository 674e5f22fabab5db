import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import type { Principal } from '../principal.js';

export const AGENT_API_KEY_STRATEGY = 'agent-api-key';
export const AGENT_API_KEY_HEADER = 'x-agent-api-key';

/** Requests whose agent key was already checked before their body was read (the events webhook's onRequest hook). */
const checkedBeforeBody = new WeakMap<FastifyRequest, Principal>();

/** `x-agent-api-key`: bound to one agent; events webhook only. */
@Injectable()
export class AgentApiKeyStrategy extends PassportStrategy(Strategy, AGENT_API_KEY_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(request: FastifyRequest): Promise<Principal> {
    const checked = checkedBeforeBody.get(request);
    return checked ? Promise.resolve(checked) : authenticateAgentKey(this.auth, request);
  }
}

/**
 * Checks the request's agent key and remembers the principal for the route's CredentialGuard, so the key is verified
 * once per request; a revocation refuses every request that arrives after it, as before.
 */
export async function authenticateAgentKeyOnce(auth: AuthService, request: FastifyRequest): Promise<Principal> {
  const principal = await authenticateAgentKey(auth, request);
  checkedBeforeBody.set(request, principal);
  return principal;
}

function authenticateAgentKey(auth: AuthService, request: FastifyRequest): Promise<Principal> {
  const key = request.headers[AGENT_API_KEY_HEADER];
  if (typeof key !== 'string' || key.length === 0) throw new UnauthorizedError(`Send the ${AGENT_API_KEY_HEADER} header`);
  return auth.authenticateAgentKey(key);
}
