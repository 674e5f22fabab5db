import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobOptions, Queue } from 'bull';
import { AppConfig } from '../config/app-config.js';
import { JOB_MAP, type JobPayloads, type QueueName, type QueuedJobName } from './job-map.js';

/** Injection token of every Bull queue of the service, by name (QueueModule builds it). */
export const QUEUES = Symbol('queues');

/** What a caller may say about one job: its id (one job per id while it is in Redis) and a delay. */
export interface Placement {
  jobId?: string;
  delayMs?: number;
}

/**
 * The one enqueuer: `enqueue(name, payload)` with the job's options from the job map. Jobs follow a committed row
 * (the durable state), so a job that never reaches Redis is re-enqueued by its feature's sweeper.
 */
@Injectable()
export class JobQueue {
  private readonly logger = new Logger(JobQueue.name);

  constructor(
    @Inject(QUEUES) private readonly queues: ReadonlyMap<QueueName, Queue>,
    private readonly config: AppConfig,
  ) {}

  /** The Bull queue itself (for the runner, metrics and tests). */
  queue(name: QueueName): Queue {
    return this.queues.get(name)!;
  }

  /** Enqueues a job; rejects when Redis does. */
  async enqueue<K extends QueuedJobName>(name: K, payload: JobPayloads[K], placement: Placement = {}): Promise<void> {
    const spec = JOB_MAP[name];
    const options: JobOptions = { ...spec.options(this.config) };
    if (placement.jobId !== undefined) options.jobId = placement.jobId;
    if (placement.delayMs !== undefined && placement.delayMs > 0) options.delay = placement.delayMs;
    await this.queue(spec.queue).add(name, payload, options);
  }

  /** Enqueues a job without making the caller wait for Redis or fail with it; a failure is logged for the sweeper. */
  tryEnqueue<K extends QueuedJobName>(name: K, payload: JobPayloads[K], placement: Placement = {}): Promise<void> {
    return this.enqueue(name, payload, placement).catch((error: unknown) =>
      this.logger.warn({ err: error, job: name, jobId: placement.jobId }, 'could not enqueue a job; its sweeper will'),
    );
  }

  /** Whether a job with this id is still in Redis (waiting, delayed, active or kept after failing). */
  async has(name: QueuedJobName, jobId: string): Promise<boolean> {
    return (await this.queue(JOB_MAP[name].queue).getJob(jobId)) !== null;
  }
}
