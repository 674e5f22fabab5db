import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AUTH_CREDENTIALS, IS_PUBLIC } from '../decorators/auth.metadata.js';

/** Global, fail-closed: an HTTP route that declares neither `@Auth(...)` nor `@Public()` is denied. */
@Injectable()
export class RouteAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    if (this.reflector.getAllAndOverride<unknown[]>(AUTH_CREDENTIALS, targets)) return true;
    throw new UnauthorizedError('This route declares no credentials and is denied');
  }
}
