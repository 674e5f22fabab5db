import { applyDecorators, createParamDecorator, SetMetadata, UseGuards, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { CredentialGuard } from '../guards/credential.guard.js';
import { Credential, type Principal } from '../principal.js';
import { AUTH_CREDENTIALS, IS_PUBLIC } from './auth.metadata.js';

export const SECURITY_BEARER = 'bearer';
export const SECURITY_ORG_API_KEY = 'organization-api-key';
export const SECURITY_AGENT_API_KEY = 'agent-api-key';

const BEARER_CREDENTIALS = new Set([Credential.ClientToken, Credential.Session, Credential.AgentSession]);

/**
 * The one statement of which credentials a route accepts: authenticates (one Passport strategy per credential),
 * rate-limits per credential, and documents the security schemes and the 401/429 responses.
 */
export function Auth(...credentials: Credential[]) {
  const security = [];
  if (credentials.some((c) => BEARER_CREDENTIALS.has(c))) security.push(ApiBearerAuth(SECURITY_BEARER));
  if (credentials.includes(Credential.OrgApiKey)) security.push(ApiSecurity(SECURITY_ORG_API_KEY));
  if (credentials.includes(Credential.AgentApiKey)) security.push(ApiSecurity(SECURITY_AGENT_API_KEY));
  return applyDecorators(
    SetMetadata(AUTH_CREDENTIALS, credentials),
    UseGuards(CredentialGuard, RateLimitGuard),
    ...security,
    ApiErrors(401, 429),
  );
}

/** Management routes: a login-session token or the organization API key. */
export const ManagementAuth = () => Auth(Credential.Session, Credential.OrgApiKey);

/** Messaging routes: a client token, or a login session scoped to an agent. */
export const MessagingAuth = () => Auth(Credential.ClientToken, Credential.AgentSession);

/** A route that needs no credential (health, the token endpoint, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The authenticated principal of the request. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user,
);
