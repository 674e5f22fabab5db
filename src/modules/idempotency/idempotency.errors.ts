import { AppError, ValidationError } from '../../common/errors/app-error.js';

/** Wire codes of idempotency keys (docs/idempotency.md). */
export enum IdempotencyErrorCode {
  /** The key was used before with another request (method, path or body). */
  KeyReused = 'idempotency_key_reused',
  /** The first request with this key is still running. */
  KeyInProgress = 'idempotency_key_in_progress',
}

/** The header, as `details[].field` names it. */
export const IDEMPOTENCY_KEY_FIELD = 'Idempotency-Key';

export class IdempotencyKeyInvalidError extends ValidationError {
  constructor(message: string) {
    super([{ field: IDEMPOTENCY_KEY_FIELD, message }], message);
  }
}

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(
      422,
      IdempotencyErrorCode.KeyReused,
      'This Idempotency-Key was already used with another request (method, path or body); use a new key for a new request',
      [{ field: IDEMPOTENCY_KEY_FIELD, message: 'already used with a different request' }],
    );
  }
}

export class IdempotencyKeyInProgressError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      409,
      IdempotencyErrorCode.KeyInProgress,
      'The first request with this Idempotency-Key is still running; retry after it finishes to get its response',
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}
