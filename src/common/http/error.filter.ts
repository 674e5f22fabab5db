import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteIndex } from './route-index.js';
import { AppError, UnsupportedMediaTypeError, ValidationError } from '../errors/app-error.js';
import { ErrorCode } from '../errors/error-code.js';
import { errorEnvelope } from '../errors/error-envelope.js';

/** Fastify's body errors that mean "this body cannot be read" (ours, from the body parsers, are already AppErrors). */
const FASTIFY_BODY_ERRORS_AS_VALIDATION = new Set(['FST_ERR_CTP_INVALID_CONTENT_LENGTH']);

/** Routes whose 413 carries their own code (spec: events webhook). */
export type PayloadTooLargeCode = (path: string) => string;

/**
 * The one place an exception becomes an HTTP response: the spec's envelope, `x-request-id`, no internals.
 * Covers our AppErrors, Fastify's body errors (mapped by Nest to HttpException with the FastifyError as cause),
 * unknown routes and methods, and anything unexpected (500, logged with the request id).
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    private readonly routes: RouteIndex,
    private readonly payloadTooLargeCode: PayloadTooLargeCode = () => ErrorCode.PayloadTooLarge,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error = this.toAppError(exception, request);
    if (error.status >= 500) {
      this.logger.error({ err: exception, reqId: request.id, url: request.url.split('?')[0] }, 'request failed');
    }
    if (reply.sent) return;
    if (error.headers) void reply.headers(error.headers);
    void reply
      .status(error.status)
      .header('x-request-id', request.id)
      .send(errorEnvelope(error.code, error.message, request.id, error.details));
  }

  private toAppError(exception: unknown, request: FastifyRequest): AppError {
    if (exception instanceof AppError) return exception;
    if (exception instanceof HttpException) return this.fromHttpException(exception, request);
    return new AppError(500, ErrorCode.InternalError, 'An unexpected error occurred; quote the request id to support');
  }

  private fromHttpException(exception: HttpException, request: FastifyRequest): AppError {
    const status = exception.getStatus();
    const cause = exception.cause as { code?: string } | undefined;
    if (cause?.code && FASTIFY_BODY_ERRORS_AS_VALIDATION.has(cause.code)) {
      return ValidationError.field('body', 'The request body is not valid JSON');
    }
    switch (status) {
      case 404: {
        const path = request.url.split('?')[0] ?? '/';
        const allowed = this.routes.allowedMethods(path);
        if (allowed.length > 0) {
          return new AppError(405, ErrorCode.MethodNotAllowed, `Method ${request.method} is not allowed on ${path}`, undefined, {
            allow: allowed.join(', '),
          });
        }
        return new AppError(404, ErrorCode.NotFound, `No route for ${request.method} ${path}`);
      }
      case 413:
        return new AppError(413, this.payloadTooLargeCode(request.url), 'The request body exceeds 1048576 bytes');
      case 415:
        return new UnsupportedMediaTypeError();
      case 400:
        return new AppError(400, ErrorCode.BadRequest, exception.message);
      default:
        return status >= 500
          ? new AppError(500, ErrorCode.InternalError, 'An unexpected error occurred; quote the request id to support')
          : new AppError(status, ErrorCode.BadRequest, exception.message);
    }
  }
}
