import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../../config/app-config.js';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { ThreadDeletionService, type RetentionRunSummary } from './thread-deletion.service.js';

/** The repeatable job's id: with the interval it makes Bull's repeat key, so every instance schedules the same one. */
export const RETENTION_JOB_ID = 'thread-retention';

/**
 * Runs thread retention as a Bull repeatable job on queue `retention`. Every process with workers schedules it at
 * start with the same repeat key (name + job id + interval), which Bull keeps once: one job per tick across all
 * instances and `npm run worker` processes, taken by whichever is free. A schedule with another interval (a changed
 * RETENTION_INTERVAL_SECONDS) is removed. A run stops starting batches after 90 % of the interval, so the next
 * tick's run does not overlap it; were two to overlap anyway, `SKIP LOCKED` splits the threads between them.
 */
@Injectable()
export class RetentionProcessor implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('ThreadRetention');

  constructor(
    @InjectQueue(QueueName.Retention) private readonly queue: Queue<JobPayloads[JobName.RunRetention]>,
    private readonly deletion: ThreadDeletionService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue
      .process(JobName.RunRetention, 1, () => this.run())
      .catch((error: unknown) => this.logger.error({ err: error }, 'retention processor stopped'));
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.schedule();
    } catch (error) {
      // Redis down at start: the other instances (or the next start) schedule it; nothing is lost meanwhile.
      this.logger.error({ err: error }, 'could not schedule the thread retention job');
    }
  }

  /** Registers the repeatable job (idempotent across instances); returns its repeat key. */
  async schedule(): Promise<string> {
    const every = this.config.retention.intervalSeconds * 1000;
    for (const job of await this.queue.getRepeatableJobs()) {
      if (job.name === JobName.RunRetention && Number(job.every) !== every) await this.queue.removeRepeatableByKey(job.key);
    }
    const job = await this.queue.add(
      JobName.RunRetention,
      {},
      { repeat: { every }, jobId: RETENTION_JOB_ID, attempts: 1, removeOnComplete: true, removeOnFail: 20 },
    );
    return String(job.opts.repeat && 'key' in job.opts.repeat ? job.opts.repeat.key : RETENTION_JOB_ID);
  }

  run(): Promise<RetentionRunSummary> {
    return this.deletion.runRetention({ budgetMs: this.config.retention.intervalSeconds * 900 });
  }
}
