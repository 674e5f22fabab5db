import { UpstreamTimeoutError, UpstreamUnavailableError } from '../runtime.errors.js';
import { AppError } from '../../../common/errors/app-error.js';
import { classifyProviderError, type ProviderErrorKind } from '../../../common/errors/provider-error-kind.js';

/**
 * Maps an SDK or network failure to our errors: timeouts (SDK timeout, or our own abort) → 504
 * `upstream_timeout`; HTTP errors and connection failures → 502 `upstream_unavailable`. The provider's
 * message is summarised, never its credentials or request.
 */
export function toProviderError(provider: string, error: unknown, timedOut: boolean): AppError {
  if (error instanceof AppError) return error;
  const e = error as { name?: string; status?: number; message?: string; constructor?: { name?: string } };
  const kind = e?.constructor?.name ?? e?.name ?? '';
  if (timedOut || /Timeout/i.test(kind)) {
    return classified('timeout', new UpstreamTimeoutError(`The ${provider} provider did not answer in time`));
  }
  if (typeof e?.status === 'number') {
    const detail = (e.message ?? '').replace(/\s+/g, ' ').slice(0, 200);
    return classified(
      statusKind(e.status),
      new UpstreamUnavailableError(`The ${provider} provider answered ${e.status}${detail ? `: ${detail}` : ''}`),
    );
  }
  if (/Abort/i.test(kind)) return classified('timeout', new UpstreamTimeoutError(`The ${provider} provider did not answer in time`));
  return classified(
    'unavailable',
    new UpstreamUnavailableError(
      `The ${provider} provider could not be reached${e?.message ? `: ${String(e.message).slice(0, 200)}` : ''}`,
    ),
  );
}

function statusKind(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return status >= 400 ? 'rejected' : 'other';
}

function classified(kind: ProviderErrorKind, error: AppError): AppError {
  return classifyProviderError(kind, error);
}

/**
 * A deadline for one provider call: aborts the request when `ms` pass (the SDK's own timeout covers the
 * response headers; this also bounds a stream that stalls midway).
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('provider timeout'));
    }, ms);
    this.timer.unref?.();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
