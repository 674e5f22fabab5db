import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';

interface RequestContext {
  requestId: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** The x-request-id of the management request being handled, or null outside one (jobs, the CLI). */
export function currentRequestId(): string | null {
  return context.getStore()?.requestId ?? null;
}

/**
 * Makes the request id (Fastify's `request.id`: the caller's sane `x-request-id`, else a new one) visible to the
 * audit log for the duration of a management handler. One AsyncLocalStorage frame per request: Nest runs the
 * handler in the async scope `next.handle()` is called in.
 */
export class RequestContextInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    return context.run({ requestId: request.id }, () => next.handle());
  }
}

/** One instance serves every management controller (it holds no state). */
export const requestContextInterceptor = new RequestContextInterceptor();
