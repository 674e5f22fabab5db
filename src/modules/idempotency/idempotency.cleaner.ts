import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** Rows deleted per statement, and statements per run at most: each run is bounded, the next one continues. */
export const CLEANUP_BATCH = 500;
const CLEANUP_MAX_BATCHES = 20;

/**
 * Every IDEMPOTENCY_CLEANUP_INTERVAL_MS, deletes expired idempotency keys in bounded batches (SKIP LOCKED: instances
 * running it at once share the work instead of waiting for each other). Expired rows are ignored by the claim
 * already (it takes them over), so this only reclaims space.
 */
@Injectable()
export class IdempotencyCleaner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyCleaner.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.clean(), this.config.idempotency.cleanupIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One run at a time; returns how many rows were deleted. */
  clean(): Promise<number> {
    this.running ??= this.deleteExpired().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deleteExpired(): Promise<number> {
    let total = 0;
    try {
      for (let batch = 0; batch < CLEANUP_MAX_BATCHES; batch += 1) {
        const deleted = await this.repository.deleteExpired(CLEANUP_BATCH);
        total += deleted;
        if (deleted < CLEANUP_BATCH) break;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'expired idempotency keys could not be deleted; the next run tries again');
    }
    return total;
  }
}
