import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { EvaluationsService } from './evaluations.service.js';

/** Evaluation runs taken at once by one process; each runs EVALUATION_CASE_CONCURRENCY cases at a time. */
export const EVALUATION_JOBS_PER_PROCESS = 2;

/** Runs evaluation jobs (queue `evaluations`); a run whose last attempt fails is marked failed with the reason. */
@Injectable()
export class EvaluationsProcessor implements OnModuleInit {
  private readonly logger = new Logger('EvaluationsProcessor');

  constructor(
    @InjectQueue(QueueName.Evaluations) private readonly queue: Queue<JobPayloads[JobName.RunEvaluation]>,
    private readonly evaluations: EvaluationsService,
  ) {}

  onModuleInit(): void {
    this.queue
      .process(JobName.RunEvaluation, EVALUATION_JOBS_PER_PROCESS, (job) => this.handle(job))
      .catch((error: unknown) => this.logger.error({ err: error }, 'evaluations processor stopped'));
  }

  async handle(job: Job<JobPayloads[JobName.RunEvaluation]>): Promise<void> {
    try {
      await this.evaluations.run(job.data.evaluationId);
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.evaluations.failed(job.data.evaluationId, error);
      throw error;
    }
  }
}
