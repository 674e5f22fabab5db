import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';

/**
 * The process's shared Redis connection for rate limits, caches and replay buffers (Bull opens its own).
 * `key()` applies the configured prefix so test runs and deployments never share keys.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;
  private readonly prefix: string;

  constructor(config: AppConfig) {
    this.client = new Redis(config.redis.url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.prefix = config.redis.keyPrefix;
  }

  key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  /** A new connection for blocking reads or subscriptions, closed by its caller. */
  duplicate(): Redis {
    return this.client.duplicate();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
