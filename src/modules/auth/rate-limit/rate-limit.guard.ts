import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../../config/app-config.js';
import { rateLimitSubject, type Principal } from '../principal.js';
import { RedisService } from '../../../common/redis/redis.service.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { FixedWindowLimiter } from './fixed-window.limiter.js';

/**
 * The fixed-window limit per credential (per client IP on public routes), see FixedWindowLimiter. Over the limit:
 * 429 `rate_limited` with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: FixedWindowLimiter;

  constructor(redis: RedisService, config: AppConfig, metrics: MetricsService) {
    this.limiter = new FixedWindowLimiter(redis, config, metrics);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const refused = await this.limiter.hit(request.user ? rateLimitSubject(request.user) : `ip:${request.ip}`);
    if (refused) throw refused;
    return true;
  }
}
