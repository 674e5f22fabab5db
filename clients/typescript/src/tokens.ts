import { ApiError } from './errors.js';
import type { components } from './schema.js';

export type TokenResponse = components['schemas']['TokenResponseDto'];

export interface TokenSourceOptions {
  baseUrl: string;
  publishableKey: string;
  /** Refresh this many seconds before `expires_in` runs out (default 60, at most half the lifetime). */
  refreshMarginSeconds?: number;
  fetch?: typeof fetch;
  /** For tests: the clock. */
  now?: () => number;
}

/**
 * Access tokens for the messaging surface from a publishable key (`grant_type=publishable_key`), exchanged on first
 * use and again shortly before each expires, so a long-lived client never sends an expired token. Concurrent
 * callers share one exchange.
 */
export class PublishableKeyTokens {
  private current?: { token: TokenResponse; refreshAt: number };
  private pending?: Promise<TokenResponse>;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly options: TokenSourceOptions) {
    // Bound: browsers refuse fetch called as a method of another object ("Illegal invocation").
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.now = options.now ?? Date.now;
  }

  /** A token valid for at least the refresh margin. */
  async accessToken(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.token.access_token;
    return (await this.exchange()).access_token;
  }

  /** The last exchange's answer (agent_id, organization_id), exchanging first if needed. */
  async details(): Promise<TokenResponse> {
    await this.accessToken();
    return this.current!.token;
  }

  /** Forget the token (e.g. after a 401): the next call exchanges again. */
  invalidate(): void {
    this.current = undefined;
  }

  private exchange(): Promise<TokenResponse> {
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async request(): Promise<TokenResponse> {
    const started = this.now();
    const response = await this.fetch(`${this.options.baseUrl}/management/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'publishable_key', publishable_key: this.options.publishableKey }),
    });
    if (!response.ok) throw await ApiError.fromResponse(response);
    const token = (await response.json()) as TokenResponse;
    const margin = Math.min(this.options.refreshMarginSeconds ?? 60, token.expires_in / 2);
    this.current = { token, refreshAt: started + (token.expires_in - margin) * 1000 };
    return token;
  }
}
