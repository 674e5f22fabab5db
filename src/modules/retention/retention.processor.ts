import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { ThreadDeletionService, type RetentionRunSummary } from './thread-deletion.service.js';

/**
 * Thread retention, a replicated task of the job map: one run per RETENTION_INTERVAL_SECONDS across all instances and
 * `npm run worker` processes, taken by whichever is free. A run stops starting batches after 90 % of the interval, so
 * the next tick's run does not overlap it; were two to overlap anyway, `SKIP LOCKED` splits the threads between them.
 */
@Injectable()
export class RetentionProcessor {
  constructor(
    private readonly deletion: ThreadDeletionService,
    private readonly config: AppConfig,
  ) {}

  @JobHandler(JobName.RunRetention)
  run(): Promise<RetentionRunSummary> {
    return this.deletion.runRetention({ budgetMs: this.config.retention.intervalSeconds * 900 });
  }
}
