import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { JobOptions, Queue } from 'bull';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { traceCarrier } from '../../telemetry/tracing.js';

/**
 * How long a flush waits for Redis. Bull's connection queues commands while Redis is down and would wait for
 * ever (holding up the sweeper and shutdown); past this the jobs are left to the sweeper.
 */
export const ENQUEUE_TIMEOUT_MS = 2000;

interface PendingJob {
  eventId: string;
  jobId: string;
  delayMs: number;
  trace?: Record<string, string>;
}

/**
 * Puts "process event X" jobs on Bull without making anyone wait for Redis: jobs asked for in one tick of the
 * event loop go out together in one `addBulk` (one pipelined round trip). A job that never reaches Redis is not a
 * lost event: the row is committed first, and the sweeper enqueues every due event not picked up in time.
 */
@Injectable()
export class EventJobs implements OnModuleDestroy {
  private readonly logger = new Logger(EventJobs.name);
  private pending: PendingJob[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;

  constructor(@InjectQueue(QueueName.Events) private readonly queue: Queue<JobPayloads[JobName.ProcessEvent]>) {}

  /**
   * Asks for one attempt at the event. `jobId` deduplicates while a job with that id is still in Redis (jobs are
   * removed when they finish); a duplicate that does run is harmless, because the claim is atomic in PostgreSQL.
   */
  enqueue(eventId: string, options: { jobId?: string; delayMs?: number } = {}): void {
    // The trace context is taken now: the batch goes out later, outside the caller's span.
    this.pending.push({ eventId, jobId: options.jobId ?? eventId, delayMs: options.delayMs ?? 0, trace: traceCarrier() });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  /**
   * Sends what is pending now; resolves when Redis has answered, failed or not answered within
   * ENQUEUE_TIMEOUT_MS (failures are logged, not thrown).
   */
  async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.flushing;
    const previous = this.flushing;
    const current = (async () => {
      await previous;
      let timer: NodeJS.Timeout | undefined;
      const added = this.queue.addBulk(
        batch.map((job) => ({ name: JobName.ProcessEvent, data: { eventId: job.eventId, trace: job.trace }, opts: jobOptions(job) })),
      );
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not take the jobs within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
      });
      try {
        await Promise.race([added, timedOut]);
      } catch (error) {
        this.logger.warn({ err: error, jobs: batch.length }, 'could not enqueue event jobs; the sweeper will pick the events up');
        // Should Redis come back, the queued commands still go out (a duplicate nudge is harmless); a late failure is no news.
        added.catch(() => undefined);
      } finally {
        clearTimeout(timer);
      }
    })();
    this.flushing = current;
    await current;
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }
}

function jobOptions(job: PendingJob): JobOptions {
  return { jobId: job.jobId, delay: job.delayMs > 0 ? job.delayMs : undefined, attempts: 1, removeOnComplete: true, removeOnFail: true };
}
