import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AUTH_CREDENTIALS } from '../decorators/auth.metadata.js';
import { Credential, type Principal } from '../principal.js';
import { AGENT_API_KEY_HEADER, AGENT_API_KEY_STRATEGY } from '../strategies/agent-api-key.strategy.js';
import { BEARER_STRATEGY, MESSAGING_TOKEN_STRATEGY } from '../strategies/bearer-token.strategy.js';
import { ORG_API_KEY_HEADER, ORG_API_KEY_STRATEGY } from '../strategies/org-api-key.strategy.js';
import { HOW_TO_GET_A_TOKEN } from '../token-hint.js';

const BEARER_CREDENTIALS = [Credential.ClientToken, Credential.Session, Credential.AgentSession];

type StrategyName = 'bearer' | 'messaging' | 'org' | 'agent';

/**
 * Picks the Passport strategy from the header the caller sent, runs it, and then enforces the surface rules:
 * a credential the route does not list is 401. A bearer token on a messaging route is checked as the WebSocket
 * session checks it (AuthService.authenticateMessagingToken: an unscoped login session is 400, a disallowed origin 403).
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly strategies: Record<StrategyName, IAuthGuard> = {
    bearer: new (AuthGuard(BEARER_STRATEGY))(),
    messaging: new (AuthGuard(MESSAGING_TOKEN_STRATEGY))(),
    org: new (AuthGuard(ORG_API_KEY_STRATEGY))(),
    agent: new (AuthGuard(AGENT_API_KEY_STRATEGY))(),
  };

  // Route metadata never changes after start-up: read it once per handler, not on every request.
  private readonly acceptedByHandler = new WeakMap<object, Credential[]>();

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const accepted = this.acceptedCredentials(context);
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const headers = request.headers;
    const strategy: StrategyName | undefined =
      headers.authorization !== undefined
        ? isMessagingRoute(accepted)
          ? 'messaging'
          : 'bearer'
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
    assertAccepted(request.user!, accepted);
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

/** Bearer tokens act as an agent here: no management login session is accepted. */
function isMessagingRoute(accepted: Credential[]): boolean {
  return (
    !accepted.includes(Credential.Session) && (accepted.includes(Credential.ClientToken) || accepted.includes(Credential.AgentSession))
  );
}

function acceptsStrategy(accepted: Credential[], strategy: StrategyName): boolean {
  if (strategy === 'bearer' || strategy === 'messaging') return accepted.some((c) => BEARER_CREDENTIALS.includes(c));
  return accepted.includes(strategy === 'org' ? Credential.OrgApiKey : Credential.AgentApiKey);
}

function assertAccepted(principal: Principal, accepted: Credential[]): void {
  switch (principal.kind) {
    case 'clientToken':
      if (accepted.includes(Credential.ClientToken)) return;
      throw new UnauthorizedError('A publishable-key access token serves the messaging surface only');
    case 'session':
      // On a route accepting AgentSession but not Session, MessagingTokenStrategy has refused unscoped sessions.
      if (accepted.includes(Credential.Session) || accepted.includes(Credential.AgentSession)) return;
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
