import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config.js';
import { rateLimitSubject, type Principal } from '../../modules/auth/principal.js';
import { RateLimitedError } from '../errors/app-error.js';
import { RedisService } from '../redis/redis.service.js';
import { MetricsService } from '../../modules/metrics/metrics.service.js';

/**
 * Fixed-window limit per credential (per client IP on public routes), counted in Redis so it holds across
 * instances: one pipelined round trip per request. Over the limit: 429 `rate_limited` with Retry-After.
 * Without Redis the limit fails open (counted and logged by RedisService): an outage of the limiter's store must
 * not turn every authenticated request, or the durable events webhook, into a 500.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly redis: RedisService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { max, windowSeconds } = this.config.rateLimit;
    if (max === 0) return true;
    if (!this.redis.ready) {
      this.redis.failedOpen('rate_limit');
      return true;
    }
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const subject = request.user ? rateLimitSubject(request.user) : `ip:${request.ip}`;
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
      return true;
    }
    if (count > max) this.metrics.rateLimitRejected();
    if (count > max) throw new RateLimitedError((window + 1) * windowSeconds - nowSeconds);
    return true;
  }
}
