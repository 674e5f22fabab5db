import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { errorEnvelope } from '../../common/errors/error-envelope.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { newId } from '../../common/ids/new-id.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { HealthRepository } from './health.repository.js';

const CHECK_TIMEOUT_MS = 2000;

/** What readiness found: the names of what failed (`database`, `redis`, or `shutdown` while draining). */
export interface Readiness {
  ready: boolean;
  failed: Array<'database' | 'redis' | 'shutdown'>;
}

/**
 * Readiness of this process, for the public `/health/ready` and the operations listener's (the worker's only one):
 * PostgreSQL and Redis reachable, and not shutting down. From SIGTERM on (docs/operations.md, "Shutdown and drain")
 * it answers not ready while requests are still served, so that balancers stop sending new ones before the listener
 * closes.
 */
@Injectable()
export class ReadinessService {
  private drainingSince: Date | undefined;

  constructor(
    private readonly database: HealthRepository,
    private readonly redis: RedisService,
  ) {}

  startDraining(): void {
    this.drainingSince ??= new Date();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** The readiness answer for a listener outside Nest (the operations listener): the same body as `GET /health/ready`. */
  async answer(): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
    const { ready, failed } = await this.check();
    if (ready) return { status: 200, headers: {}, body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } };
    const error = notReady(failed);
    const requestId = newId();
    return {
      status: 503,
      headers: { ...error.headers, 'x-request-id': requestId },
      body: errorEnvelope(error.code, error.message, requestId, error.details),
    };
  }

  async check(): Promise<Readiness> {
    const [database, redis] = await Promise.all([withinTimeout(() => this.database.ping()), withinTimeout(() => this.redis.client.ping())]);
    const failed: Readiness['failed'] = [];
    if (this.draining) failed.push('shutdown');
    if (!database) failed.push('database');
    if (!redis) failed.push('redis');
    return { ready: failed.length === 0, failed };
  }
}

/** 503 `not_ready` naming what failed: a dependency that is unreachable, or this instance shutting down. */
export function notReady(failed: Readiness['failed']): AppError {
  const reason = (name: string) => (name === 'shutdown' ? 'this instance is shutting down' : `${name} is unreachable`);
  return new AppError(
    503,
    ErrorCode.NotReady,
    `Not ready: ${failed.map(reason).join(', ')}`,
    failed.map((name) => ({ field: name, message: reason(name) })),
    { 'retry-after': '5' },
  );
}

async function withinTimeout(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
