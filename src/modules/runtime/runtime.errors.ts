import { AppError } from '../../common/errors/app-error.js';

/** Wire codes of provider failures (the shared ErrorCode enum has upstream_unavailable; the timeout is ours). */
export const RuntimeErrorCode = {
  UpstreamUnavailable: 'upstream_unavailable',
  UpstreamTimeout: 'upstream_timeout',
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
