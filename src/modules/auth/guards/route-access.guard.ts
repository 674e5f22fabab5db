import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../../../common/errors/app-error.js';
import { AUTH_CREDENTIALS, IS_PUBLIC } from '../decorators/auth.metadata.js';

/** Global, fail-closed: an HTTP route that declares neither `@Auth(...)` nor `@Public()` is denied. */
@Injectable()
export class RouteAccessGuard implements CanActivate {
  // Declarations never change after start-up: decided once per handler.
  private readonly declared = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    let declared = this.declared.get(handler);
    if (declared === undefined) {
      const targets = [handler, context.getClass()];
      declared = Boolean(
        this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ||
        this.reflector.getAllAndOverride<unknown[]>(AUTH_CREDENTIALS, targets),
      );
      this.declared.set(handler, declared);
    }
    if (declared) return true;
    throw new UnauthorizedError('This route declares no credentials and is denied');
  }
}
