import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import { AUTH_CREDENTIALS } from '../decorators/auth.metadata.js';
import { Credential, type Principal } from '../principal.js';
import { AGENT_API_KEY_HEADER, AGENT_API_KEY_STRATEGY } from '../strategies/agent-api-key.strategy.js';
import { BEARER_STRATEGY } from '../strategies/bearer-token.strategy.js';
import { ORG_API_KEY_HEADER, ORG_API_KEY_STRATEGY } from '../strategies/org-api-key.strategy.js';
import { HOW_TO_GET_A_TOKEN } from '../token-hint.js';

const BEARER_CREDENTIALS = [Credential.ClientToken, Credential.Session, Credential.AgentSession];

/**
 * Picks the Passport strategy from the header the caller sent, runs it, and then enforces the surface rules:
 * a credential the route does not list is 401; an unscoped login session on messaging is 400 (missing context).
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly strategies: Record<'bearer' | 'org' | 'agent', IAuthGuard> = {
    bearer: new (AuthGuard(BEARER_STRATEGY))(),
    org: new (AuthGuard(ORG_API_KEY_STRATEGY))(),
    agent: new (AuthGuard(AGENT_API_KEY_STRATEGY))(),
  };

  // Route metadata never changes after start-up: read it once per handler, not on every request.
  private readonly acceptedByHandler = new WeakMap<object, Credential[]>();

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const accepted = this.acceptedCredentials(context);
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const headers = request.headers;
    const strategy =
      headers.authorization !== undefined
        ? 'bearer'
        : headers[ORG_API_KEY_HEADER] !== undefined
          ? 'org'
          : headers[AGENT_API_KEY_HEADER] !== undefined
            ? 'agent'
            : undefined;
    if (!strategy) throw new UnauthorizedError(`Missing credentials: send ${describe(accepted)}`);
    if (!acceptsStrategy(accepted, strategy)) {
      if (strategy === 'org' && accepted.includes(Credential.ClientToken)) {
        throw new UnauthorizedError(`The organization API key serves the management surface only; for messaging, ${HOW_TO_GET_A_TOKEN}`);
      }
      throw new UnauthorizedError(`This credential is not accepted here; send ${describe(accepted)}`);
    }
    await this.strategies[strategy].canActivate(context);
    const principal = request.user!;
    assertAccepted(principal, accepted);
    this.auth.assertOriginAllowed(principal, headers.origin);
    return true;
  }

  private acceptedCredentials(context: ExecutionContext): Credential[] {
    const handler = context.getHandler();
    let accepted = this.acceptedByHandler.get(handler);
    if (!accepted) {
      accepted = this.reflector.getAllAndOverride<Credential[]>(AUTH_CREDENTIALS, [handler, context.getClass()]) ?? [];
      this.acceptedByHandler.set(handler, accepted);
    }
    return accepted;
  }
}

function acceptsStrategy(accepted: Credential[], strategy: 'bearer' | 'org' | 'agent'): boolean {
  if (strategy === 'bearer') return accepted.some((c) => BEARER_CREDENTIALS.includes(c));
  return accepted.includes(strategy === 'org' ? Credential.OrgApiKey : Credential.AgentApiKey);
}

function assertAccepted(principal: Principal, accepted: Credential[]): void {
  switch (principal.kind) {
    case 'clientToken':
      if (accepted.includes(Credential.ClientToken)) return;
      throw new UnauthorizedError('A publishable-key access token serves the messaging surface only');
    case 'session':
      if (accepted.includes(Credential.Session)) return;
      if (accepted.includes(Credential.AgentSession)) {
        if (principal.agentId) return;
        throw new BadRequestError('This login session is not scoped to an agent; log in with agent_id to use messaging');
      }
      throw new UnauthorizedError('A login-session token is not accepted here');
    case 'orgKey':
      if (accepted.includes(Credential.OrgApiKey)) return;
      throw new UnauthorizedError('The organization API key serves the management surface only');
    case 'agentKey':
      if (accepted.includes(Credential.AgentApiKey)) return;
      throw new UnauthorizedError('The agent API key serves the events webhook only');
  }
}

function describe(accepted: Credential[]): string {
  const names = new Set<string>();
  for (const c of accepted) {
    if (BEARER_CREDENTIALS.includes(c)) names.add('Authorization: Bearer <token>');
    if (c === Credential.OrgApiKey) names.add(ORG_API_KEY_HEADER);
    if (c === Credential.AgentApiKey) names.add(AGENT_API_KEY_HEADER);
  }
  return [...names].join(' or ');
}
