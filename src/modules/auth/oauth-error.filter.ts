import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { TokenGrantError } from './auth.service.js';

const logger = new Logger('OAuthErrorFilter');

/** The token endpoint's failures use an OAuth 2.0 body instead of the envelope (spec Authentication rule 7). */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendOAuthError(exception, host.switchToHttp().getRequest<FastifyRequest>(), host.switchToHttp().getResponse<FastifyReply>());
  }
}

/**
 * Renders a token-endpoint failure. Also the route's Fastify error handler (see app.setup), so that what fails
 * before Nest runs (body parsing: depth, malformed JSON, NUL; size; media type) gets the OAuth body too.
 */
export function sendOAuthError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const [status, error, description, headers] = describe(exception, request);
  void reply
    .status(status)
    .headers({ 'x-request-id': request.id, 'cache-control': 'no-store', ...headers })
    .send({ error, error_description: description });
}

function describe(exception: unknown, request: FastifyRequest): [number, string, string, Record<string, string>?] {
  if (exception instanceof TokenGrantError) return [400, exception.error, exception.errorDescription];
  if (exception instanceof AppError) {
    if (exception.code === ErrorCode.ValidationError) {
      const fields = (exception.details ?? []).map((d) => d.field).join(', ');
      return [400, 'invalid_request', `invalid_or_missing_fields: ${fields}`];
    }
    if (exception.code === ErrorCode.RateLimited) return [429, 'rate_limited', exception.message, exception.headers];
    if (exception.status < 500) return [400, 'invalid_request', exception.message];
  } else if (isFastifyClientError(exception)) {
    // Fastify's own refusals of the request (body too large, unsupported media type, bad content-length).
    return [400, 'invalid_request', exception.message];
  }
  logger.error({ err: exception, reqId: request.id }, 'token endpoint failed');
  return [500, 'server_error', 'unexpected_error'];
}

function isFastifyClientError(exception: unknown): exception is Error & { statusCode: number } {
  const status = (exception as { statusCode?: unknown } | undefined)?.statusCode;
  return exception instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}
