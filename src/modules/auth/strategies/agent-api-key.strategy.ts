import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import type { Principal } from '../principal.js';

export const AGENT_API_KEY_STRATEGY = 'agent-api-key';
export const AGENT_API_KEY_HEADER = 'x-agent-api-key';

/** `x-agent-api-key`: bound to one agent; events webhook only. */
@Injectable()
export class AgentApiKeyStrategy extends PassportStrategy(Strategy, AGENT_API_KEY_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(request: FastifyRequest): Promise<Principal> {
    const key = request.headers[AGENT_API_KEY_HEADER];
    if (typeof key !== 'string' || key.length === 0) throw new UnauthorizedError(`Send the ${AGENT_API_KEY_HEADER} header`);
    return this.auth.authenticateAgentKey(key);
  }
}
