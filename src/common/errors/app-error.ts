import { ErrorCode } from './error-code.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * A failure that maps to one HTTP status and wire code. Services, processors, gateways and the CLI throw
 * these (never Nest's HttpException), so every transport renders them the same way.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code: string = ErrorCode.BadRequest) {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, ErrorCode.Unauthorized, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, ErrorCode.Forbidden, message);
  }
}

export class NotFoundError extends AppError {
  constructor(what = 'Resource', code: string = ErrorCode.NotFound) {
    super(404, code, `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(415, ErrorCode.UnsupportedMediaType, 'Send the body as application/json');
  }
}

export class ValidationError extends AppError {
  constructor(details: ErrorDetail[], message = 'The request is not valid') {
    super(422, ErrorCode.ValidationError, message, details);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }], message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, ErrorCode.RateLimited, 'Too many requests for this credential', undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}
