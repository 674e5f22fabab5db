import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { loadConfig } from '../../config/app-config.js';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { withCarriedContext, withSpan } from '../../telemetry/tracing.js';
import { EventsService } from './events.service.js';

/** EVENTS_CONCURRENCY, read when the decorator is evaluated (Bull takes concurrency at registration). */
function eventsConcurrency(): number {
  try {
    return loadConfig().events.concurrency;
  } catch {
    return 8; // An invalid environment is reported by the entry point with every bad key.
  }
}

/** Thin: every delivery of a job is one `EventsService.process` call; ordering and idempotency live there. */
@Processor(QueueName.Events)
export class EventsProcessor {
  constructor(private readonly events: EventsService) {}

  @Process({ name: JobName.ProcessEvent, concurrency: eventsConcurrency() })
  async handle(job: Job<JobPayloads[JobName.ProcessEvent]>): Promise<string> {
    // A child of the accept's span (carried in the job): one trace from the webhook call to the turn.
    return withCarriedContext(job.data.trace, () => withSpan('event.process', () => this.events.process(job.data.eventId)));
  }
}
