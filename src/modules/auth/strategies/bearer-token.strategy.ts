import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import type { Principal } from '../principal.js';
import { HOW_TO_GET_A_TOKEN } from '../token-hint.js';

export const BEARER_STRATEGY = 'bearer-token';

/** `Authorization: Bearer <access token>` from the publishable-key or password grant. */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(request: FastifyRequest): Promise<Principal> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new UnauthorizedError('Send the access token as Authorization: Bearer <token>');
    if (token.startsWith('pk_')) throw new UnauthorizedError(`A publishable key is not an access token: ${HOW_TO_GET_A_TOKEN}`);
    return this.auth.authenticateBearer(token);
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
