import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../../config/app-config.js';
import { rateLimitSubject, type Principal } from '../principal.js';
import { RedisService } from '../../../common/redis/redis.service.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { FixedWindowLimiter, rateLimitHeaders } from './fixed-window.limiter.js';

/**
 * The fixed-window limit per credential (per client IP on public routes), see FixedWindowLimiter. Every counted
 * response says where the window stands (RateLimit-* headers); over the limit: 429 `rate_limited` with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: FixedWindowLimiter;

  constructor(redis: RedisService, config: AppConfig, metrics: MetricsService) {
    this.limiter = new FixedWindowLimiter(redis, config, metrics);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: Principal }>();
    const window = await this.limiter.count(request.user ? rateLimitSubject(request.user) : `ip:${request.ip}`);
    if (!window) return true;
    // Set on the reply now: they go out with the answer, an error or a hijacked stream's head alike.
    void http.getResponse<FastifyReply>().headers(rateLimitHeaders(window));
    if (window.used > window.limit) throw this.limiter.refusal(window);
    return true;
  }
}
