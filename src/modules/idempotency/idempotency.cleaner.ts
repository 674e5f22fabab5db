import { Injectable, Logger } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** Rows deleted per statement, and statements per run at most: each run is bounded, the next one continues. */
export const CLEANUP_BATCH = 500;
const CLEANUP_MAX_BATCHES = 20;

/**
 * Every IDEMPOTENCY_CLEANUP_INTERVAL_MS (a periodic task), deletes expired idempotency keys in bounded batches (SKIP
 * LOCKED: instances running it at once share the work instead of waiting for each other). Expired rows are ignored by
 * the claim already (it takes them over), so this only reclaims space.
 */
@Injectable()
export class IdempotencyCleaner {
  private readonly logger = new Logger(IdempotencyCleaner.name);

  constructor(private readonly repository: IdempotencyRepository) {}

  /** Returns how many rows were deleted. */
  @JobHandler(JobName.CleanIdempotencyKeys)
  async clean(): Promise<number> {
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
