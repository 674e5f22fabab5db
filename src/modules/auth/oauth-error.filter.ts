import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { TokenGrantError } from './auth.service.js';

/** The token endpoint's failures use an OAuth 2.0 body instead of the envelope (spec Authentication rule 7). */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuthErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const [status, error, description, headers] = this.describe(exception, request);
    void reply.status(status).headers({ 'x-request-id': request.id, 'cache-control': 'no-store', ...headers }).send({ error, error_description: description });
  }

  private describe(exception: unknown, request: FastifyRequest): [number, string, string, Record<string, string>?] {
    if (exception instanceof TokenGrantError) return [400, exception.error, exception.errorDescription];
    if (exception instanceof AppError) {
      if (exception.code === ErrorCode.ValidationError) {
        const fields = (exception.details ?? []).map((d) => d.field).join(', ');
        return [400, 'invalid_request', `invalid_or_missing_fields: ${fields}`];
      }
      if (exception.code === ErrorCode.RateLimited) return [429, 'rate_limited', exception.message, exception.headers];
      if (exception.status < 500) return [400, 'invalid_request', exception.message];
    }
    this.logger.error({ err: exception, reqId: request.id }, 'token endpoint failed');
    return [500, 'server_error', 'unexpected_error'];
  }
}
