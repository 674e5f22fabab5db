import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { AppConfig } from '../../config/app-config.js';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { withCarriedContext, withSpan } from '../../telemetry/tracing.js';
import { EventsService } from './events.service.js';

type ProcessEventJob = Job<JobPayloads[JobName.ProcessEvent]>;

/**
 * Thin: every delivery of a job is one `EventsService.process` call; ordering and idempotency live there.
 * Registered at module init rather than with `@Process`: Bull takes the concurrency when the handler is registered,
 * and a decorator argument cannot read the injected configuration (EVENTS_CONCURRENCY).
 */
@Injectable()
export class EventsProcessor implements OnModuleInit {
  private readonly logger = new Logger(EventsProcessor.name);

  constructor(
    @InjectQueue(QueueName.Events) private readonly queue: Queue<JobPayloads[JobName.ProcessEvent]>,
    private readonly events: EventsService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue
      .process(JobName.ProcessEvent, this.config.events.concurrency, (job: ProcessEventJob) => this.handle(job))
      .catch((error: unknown) => this.logger.error({ err: error }, 'events processor stopped'));
  }

  handle(job: ProcessEventJob): Promise<string> {
    // A child of the accept's span (carried in the job): one trace from the webhook call to the turn.
    return withCarriedContext(job.data.trace, () => withSpan('event.process', () => this.events.process(job.data.eventId)));
  }
}
