import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';

/** The checks that let requests through when Redis cannot answer, rather than failing them. */
export type FailOpenArea = 'rate_limit' | 'login_attempts';

const FAIL_OPEN_LOG_INTERVAL_MS = 30_000;

/**
 * The process's shared Redis connection for rate limits, caches and replay buffers (Bull opens its own).
 * `key()` applies the configured prefix so test runs and deployments never share keys.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;
  /** Checks skipped because Redis could not answer, per area, since start (for the metrics endpoint). */
  readonly failOpenCounts: Record<FailOpenArea, number> = { rate_limit: 0, login_attempts: 0 };
  private readonly prefix: string;
  private readonly logger = new Logger('Redis');
  private readonly lastFailOpenLog = new Map<FailOpenArea, number>();

  constructor(config: AppConfig) {
    this.client = new Redis(config.redis.url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.prefix = config.redis.keyPrefix;
  }

  key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  /** Connected now. Callers that can do without Redis skip it otherwise, instead of waiting for reconnection. */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Records a check let through without Redis: counted always, logged at most once per 30 s per area. */
  failedOpen(area: FailOpenArea, error?: unknown): void {
    this.failOpenCounts[area] += 1;
    const now = Date.now();
    if (now - (this.lastFailOpenLog.get(area) ?? 0) < FAIL_OPEN_LOG_INTERVAL_MS) return;
    this.lastFailOpenLog.set(area, now);
    this.logger.warn(
      { err: error, area, failOpenTotal: this.failOpenCounts[area], redisStatus: this.client.status },
      `Redis unavailable: ${area} checks let requests through`,
    );
  }

  /** A new connection for blocking reads or subscriptions, closed by its caller. */
  duplicate(): Redis {
    return this.client.duplicate();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
