import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, getSchemaPath } from '@nestjs/swagger';
import { errorExample } from '../../common/swagger/api-errors.decorator.js';
import { ErrorEnvelopeDto } from '../../common/errors/error-envelope.js';
import { IDEMPOTENCY_KEY_MAX_CHARS } from './idempotency-key.js';
import { IdempotencyErrorCode } from './idempotency.errors.js';
import { IDEMPOTENT, type IdempotentOptions } from './idempotency-context.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

const HEADER_DESCRIPTION =
  'A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted ' +
  'Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h ' +
  'changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another ' +
  'request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 ' +
  '`idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key ' +
  'may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it ' +
  'empty: each Execute then sends a fresh one.';

const CONFLICT = {
  code: IdempotencyErrorCode.KeyInProgress,
  message: 'The first request with this Idempotency-Key is still running; retry after it finishes to get its response',
};
const CONFLICT_DESCRIPTION =
  'The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After)';
const REUSED_DESCRIPTION = 'The Idempotency-Key was used before with another request (`idempotency_key_reused`), or is malformed';

/** Where @nestjs/swagger keeps an operation's responses (API_RESPONSE_METADATA, not exported by the package). */
const API_RESPONSE_METADATA = 'swagger/apiResponse';

type Responses = Record<string, { description?: string; content?: unknown; headers?: Record<string, unknown> }>;

interface ErrorCase {
  code: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
}

const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * Documents idempotency keys on the operation's responses: `Idempotent-Replayed` on its success responses, and the
 * 409 and 422 answers — appended to the description of a status the operation already documents (its example
 * stays), or added with an example of their own. Apply it above the operation's other response decorators
 * (decorators apply bottom-up), so that it sees them.
 */
function ApiIdempotencyResponses(): MethodDecorator {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as object;
    const responses: Responses = { ...((Reflect.getMetadata(API_RESPONSE_METADATA, method) as Responses | undefined) ?? {}) };
    for (const [status, response] of Object.entries(responses)) {
      if (/^2\d\d$/.test(status)) responses[status] = { ...response, headers: { ...response.headers, ...REPLAYED_HEADER } };
    }
    const amend = (status: string, description: string, also: string, example: ErrorCase) => {
      const existing = responses[status];
      responses[status] = existing
        ? { ...existing, description: `${existing.description ?? ''}; ${also}` }
        : {
            description,
            content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) }, example: errorExample(example) } },
          };
    };
    amend(
      '409',
      CONFLICT_DESCRIPTION,
      '`idempotency_key_in_progress`: the first request with this Idempotency-Key is still running (see Retry-After)',
      CONFLICT,
    );
    amend('422', REUSED_DESCRIPTION, '`idempotency_key_reused`: the Idempotency-Key was used before with another request', {
      code: IdempotencyErrorCode.KeyReused,
      message: 'This Idempotency-Key was already used with another request (method, path or body); use a new key for a new request',
      details: [{ field: 'Idempotency-Key', message: 'already used with a different request' }],
    });
    Reflect.defineMetadata(API_RESPONSE_METADATA, responses, method);
    return descriptor;
  };
}

/**
 * The route honours the `Idempotency-Key` header (IETF httpapi-idempotency-key-header): it attaches
 * IdempotencyInterceptor (after the guards), which runs the route once per key and credential and replays its first
 * response. Put it first (topmost) among the route's decorators.
 */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    ApiIdempotencyResponses(),
    SetMetadata(IDEMPOTENT, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiExtraModels(ErrorEnvelopeDto),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: HEADER_DESCRIPTION,
      // No example: Swagger UI would pre-fill it on every try (one key for every request); its interceptor makes a fresh one.
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_CHARS },
    }),
  );
