import { AppError } from '../../common/errors/app-error.js';

/** Wire codes of provider failures (the shared ErrorCode enum has upstream_unavailable; the timeout is ours). */
export const RuntimeErrorCode = {
  UpstreamUnavailable: 'upstream_unavailable',
  UpstreamTimeout: 'upstream_timeout',
  UnprocessableInput: 'unprocessable_input',
} as const;

/** The model provider failed, refused, or is not configured: 502 `upstream_unavailable`. */
export class UpstreamUnavailableError extends AppError {
  constructor(message: string) {
    super(502, RuntimeErrorCode.UpstreamUnavailable, message);
  }
}

/** The model provider did not answer within `PROVIDER_TIMEOUT_MS`: 504 `upstream_timeout`. */
export class UpstreamTimeoutError extends AppError {
  constructor(message: string) {
    super(504, RuntimeErrorCode.UpstreamTimeout, message);
  }
}

/**
 * The engine failed on this input (not on a provider). Engines are deterministic, so the same input on the same
 * revision fails the same way again: 422 `unprocessable_input`, a permanent failure that callers and the events
 * pipeline must not retry. The original error stays in `cause` for the logs, never on the wire.
 */
export class EngineInputError extends AppError {
  constructor(cause: unknown) {
    super(422, RuntimeErrorCode.UnprocessableInput, 'The agent engine cannot process this input; sending it again fails the same way');
    this.cause = cause;
  }
}
