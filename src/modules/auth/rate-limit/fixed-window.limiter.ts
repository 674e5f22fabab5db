import type { AppConfig } from '../../../config/app-config.js';
import type { MetricsService } from '../../metrics/metrics.service.js';
import { RateLimitedError } from '../../../common/errors/app-error.js';
import type { RedisService } from '../../../common/redis/redis.service.js';

/**
 * The fixed-window limit per rate-limit subject (a credential, or a client IP on public routes), counted in Redis so
 * it holds across instances: one pipelined round trip per request. HTTP requests (RateLimitGuard) and WebSocket
 * `message` frames (SessionService) count in the same buckets. Without Redis the limit fails open (counted and logged
 * by RedisService): an outage of the limiter's store must not turn every request into a 500.
 */
export class FixedWindowLimiter {
  constructor(
    private readonly redis: RedisService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** Counts one request of `subject`; the refusal (429 with Retry-After) when it is over the limit. */
  async hit(subject: string): Promise<RateLimitedError | undefined> {
    const window = await this.count(subject);
    return window && window.used > window.limit ? this.refusal(window) : undefined;
  }

  /** The 429 for a window that is used up (counted in the metrics). */
  refusal(window: RateLimitWindow): RateLimitedError {
    this.metrics.rateLimitRejected();
    return new RateLimitedError(window.resetSeconds);
  }

  /** Counts one request of `subject` and says where its window stands; undefined when no limit applies or Redis is down. */
  async count(subject: string): Promise<RateLimitWindow | undefined> {
    const { max, windowSeconds } = this.config.rateLimit;
    if (max === 0) return undefined;
    if (!this.redis.ready) {
      this.redis.failedOpen('rate_limit');
      return undefined;
    }
    const nowSeconds = Math.floor(Date.now() / 1000);
    const window = Math.floor(nowSeconds / windowSeconds);
    const key = this.redis.key('rl', subject, String(window));
    let count: number;
    try {
      const results = await this.redis.client
        .pipeline()
        .incr(key)
        .expire(key, windowSeconds + 1)
        .exec();
      const [error, value] = results?.[0] ?? [new Error('no reply')];
      if (error) throw error;
      count = Number(value);
    } catch (error) {
      this.redis.failedOpen('rate_limit', error);
      return undefined;
    }
    return { limit: max, used: count, windowSeconds, resetSeconds: (window + 1) * windowSeconds - nowSeconds };
  }
}

/** A subject's fixed window after counting a request. */
export interface RateLimitWindow {
  limit: number;
  /** Requests counted in this window, this one included (above `limit` when it is refused). */
  used: number;
  windowSeconds: number;
  /** Seconds until the window ends and the count starts over. */
  resetSeconds: number;
}

export const RATE_LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/**
 * The rate-limit response headers (docs/api.md): the IETF httpapi draft's `RateLimit-Policy`, `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds), as draft 6 and the common libraries send them.
 */
export function rateLimitHeaders(window: RateLimitWindow): Record<string, string> {
  return {
    'ratelimit-policy': `${window.limit};w=${window.windowSeconds}`,
    'ratelimit-limit': String(window.limit),
    'ratelimit-remaining': String(Math.max(0, window.limit - window.used)),
    'ratelimit-reset': String(window.resetSeconds),
  };
}
