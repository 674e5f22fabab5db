import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AuthService } from '../auth.service.js';
import type { Principal } from '../principal.js';

export const ORG_API_KEY_STRATEGY = 'org-api-key';
export const ORG_API_KEY_HEADER = 'x-organization-api-key';

/** `x-organization-api-key`: management only. */
@Injectable()
export class OrgApiKeyStrategy extends PassportStrategy(Strategy, ORG_API_KEY_STRATEGY) {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(request: FastifyRequest): Promise<Principal> {
    const key = request.headers[ORG_API_KEY_HEADER];
    if (typeof key !== 'string' || key.length === 0) throw new UnauthorizedError(`Send the ${ORG_API_KEY_HEADER} header`);
    return this.auth.authenticateOrganizationKey(key);
  }
}
