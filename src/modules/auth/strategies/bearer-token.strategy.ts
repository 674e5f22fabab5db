import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import type { Principal } from '../principal.js';
import { HOW_TO_GET_A_TOKEN } from '../token-hint.js';

export const BEARER_STRATEGY = 'bearer-token';
export const MESSAGING_TOKEN_STRATEGY = 'messaging-token';

/** `Authorization: Bearer <access token>` from the publishable-key or password grant. */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(request: FastifyRequest): Promise<Principal> {
    return this.auth.authenticateBearer(requiredBearerToken(request));
  }
}

/** The bearer token on messaging routes: acting as an agent, from an allowed origin and address (as the WebSocket session checks it). */
@Injectable()
export class MessagingTokenStrategy extends PassportStrategy(Strategy, MESSAGING_TOKEN_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  async validate(request: FastifyRequest): Promise<Principal> {
    const client = { origin: request.headers.origin, ip: request.ip };
    return (await this.auth.authenticateMessagingToken(requiredBearerToken(request), client)).principal;
  }
}

/** The token of an `Authorization: Bearer <token>` header; undefined for a missing header or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function requiredBearerToken(request: FastifyRequest): string {
  const token = bearerToken(request.headers.authorization);
  if (!token) throw new UnauthorizedError('Send the access token as Authorization: Bearer <token>');
  if (token.startsWith('pk_')) throw new UnauthorizedError(`A publishable key is not an access token: ${HOW_TO_GET_A_TOKEN}`);
  return token;
}
