import { UpstreamTimeoutError, UpstreamUnavailableError } from '../runtime.errors.js';
import { AppError } from '../../../common/errors/app-error.js';
import { classifyProviderError, type ProviderErrorKind } from '../../../common/errors/provider-error-kind.js';

/** Where a provider's calls go and the variables that set it up: what its errors name, for whoever fixes them. */
export interface ProviderEndpoint {
  provider: 'openai' | 'anthropic';
  /** The base URL, without credentials or query. */
  url: string;
  urlVariable: string;
  keyVariable: string;
}

const DEFAULT_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' };

export function providerEndpoint(provider: ProviderEndpoint['provider'], baseUrl: string | undefined): ProviderEndpoint {
  const prefix = provider.toUpperCase();
  let url = baseUrl ?? DEFAULT_URLS[provider];
  try {
    const parsed = new URL(url);
    url = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/$/, '')}`;
  } catch {
    // Config validation admits only URLs; keep the text as given otherwise.
  }
  return { provider, url, urlVariable: `${prefix}_BASE_URL`, keyVariable: `${prefix}_API_KEY` };
}

/**
 * Maps an SDK or network failure to our errors: timeouts (SDK timeout, or our own abort) → 504
 * `upstream_timeout`; HTTP errors and connection failures → 502 `upstream_unavailable`. The message names the
 * provider's URL and the variable that sets it (and the key's variable when the key was refused); the provider's
 * own message is summarised, never its credentials or request.
 */
export function toProviderError(endpoint: ProviderEndpoint, error: unknown, timedOut: boolean): AppError {
  if (error instanceof AppError) return error;
  const e = error as { name?: string; status?: number; message?: string; constructor?: { name?: string } };
  const kind = e?.constructor?.name ?? e?.name ?? '';
  const where = `The ${endpoint.provider} provider at ${endpoint.url} (${endpoint.urlVariable})`;
  const timeout = () => classified('timeout', new UpstreamTimeoutError(`${where} did not answer within PROVIDER_TIMEOUT_MS`));
  if (timedOut || /Timeout/i.test(kind)) return timeout();
  if (typeof e?.status === 'number') {
    const detail = (e.message ?? '').replace(/\s+/g, ' ').slice(0, 200);
    const key = e.status === 401 || e.status === 403 ? `; check ${endpoint.keyVariable}` : '';
    return classified(
      statusKind(e.status),
      new UpstreamUnavailableError(`${where} answered ${e.status}${detail ? `: ${detail}` : ''}${key}`),
    );
  }
  if (/Abort/i.test(kind)) return timeout();
  return classified(
    'unavailable',
    new UpstreamUnavailableError(`${where} could not be reached${e?.message ? `: ${String(e.message).slice(0, 200)}` : ''}`),
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
