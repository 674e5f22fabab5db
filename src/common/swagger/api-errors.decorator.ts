import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-code.js';
import { ErrorEnvelopeDto, type ErrorEnvelope } from '../errors/error-envelope.js';

/** One documented error of an operation: its status, the wire code it answers and a message like the real one. */
export interface ApiErrorCase {
  status: number;
  code: string;
  message: string;
  /** Overrides the status's generic description (e.g. to name several codes). */
  description?: string;
  details?: Array<{ field: string; message: string }>;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request (`bad_request`): malformed or missing required context',
  401: 'Missing or invalid credentials (`unauthorized`)',
  403: 'The credential may not do this (`forbidden`)',
  404: 'Nothing the caller may see has this id (`not_found`)',
  405: 'The path exists with other methods (`method_not_allowed`, see Allow)',
  409: 'The resource is in a state that forbids this (see the code)',
  413: 'The body exceeds 1 MiB (`payload_too_large`)',
  415: 'The body is not application/json (`unsupported_media_type`)',
  422: 'Invalid input (`validation_error`); `details[].field` names each field',
  429: 'Rate limit of this credential reached (`rate_limited`, see Retry-After)',
  500: 'Unexpected error (`internal_error`)',
  502: 'A dependency could not be reached (`upstream_unavailable`)',
  503: 'Temporarily unavailable (see Retry-After)',
  504: 'A dependency did not answer in time (`upstream_timeout`)',
};

/** The error each status answers unless an operation names a more precise one. */
const DEFAULT_CASES: Record<number, Omit<ApiErrorCase, 'status'>> = {
  400: { code: ErrorCode.BadRequest, message: 'This session token is not scoped to an agent; request one with agent_id' },
  401: { code: ErrorCode.Unauthorized, message: 'Missing or invalid credentials' },
  403: { code: ErrorCode.Forbidden, message: 'This origin is not allowed for the publishable key' },
  404: { code: ErrorCode.NotFound, message: 'Agent not found' },
  405: { code: ErrorCode.MethodNotAllowed, message: 'Method PUT is not allowed on this path' },
  409: { code: ErrorCode.Conflict, message: 'The resource is in a state that forbids this' },
  413: { code: ErrorCode.PayloadTooLarge, message: 'The request body exceeds 1048576 bytes' },
  415: { code: ErrorCode.UnsupportedMediaType, message: 'Content-Type text/plain is not supported; send application/json' },
  422: {
    code: ErrorCode.ValidationError,
    message: 'The request is invalid',
    details: [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }],
  },
  429: { code: ErrorCode.RateLimited, message: 'Rate limit reached; retry after 12 seconds' },
  500: { code: ErrorCode.InternalError, message: 'An unexpected error occurred' },
  502: { code: ErrorCode.UpstreamUnavailable, message: 'The model provider could not be reached' },
  503: { code: ErrorCode.NotReady, message: 'Not ready: redis unreachable' },
  // The runtime's own code (RuntimeErrorCode); common/ does not import modules.
  504: { code: 'upstream_timeout', message: 'The model provider did not answer in time' },
};

/** An example request id: the envelope's `request_id` equals the response's x-request-id header. */
const EXAMPLE_REQUEST_ID = 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

export function errorExample(error: Omit<ApiErrorCase, 'status' | 'description'>): ErrorEnvelope {
  const body: ErrorEnvelope['error'] = { code: error.code, message: error.message, request_id: EXAMPLE_REQUEST_ID };
  if (error.details) body.details = error.details;
  return { error: body };
}

/**
 * Documents error responses in the spec's envelope, each status with its own example. A bare status uses its
 * generic code; an `ApiErrorCase` names the operation's own (`version_archived`, `sender_exists`…). A method's
 * declaration of a status replaces the controller's.
 */
export const ApiErrors = (...errors: Array<number | ApiErrorCase>) =>
  applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...errors.map((error) => {
      const known = typeof error === 'number' ? { status: error, ...DEFAULT_CASES[error]! } : error;
      // Errors are JSON whatever the operation produces on success (the stream's are not events).
      return ApiResponse({
        status: known.status,
        description: known.description ?? DESCRIPTIONS[known.status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) }, example: errorExample(known) } },
      });
    }),
  );
