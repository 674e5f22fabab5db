import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { PageRequest } from './paginate.js';

/** The path and raw query the caller used, for `links.next` / `links.prev`. */
export const CurrentPageRequest = createParamDecorator((_: unknown, ctx: ExecutionContext): PageRequest => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return { path: request.url.split('?')[0] ?? '/', query: (request.query ?? {}) as Record<string, unknown> };
});
