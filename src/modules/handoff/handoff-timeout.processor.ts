import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { HandoffService } from './handoff.service.js';

/** A handoff request's timeout: thin, the compare-and-set in HandoffService makes it act once. */
@Processor(QueueName.Handoff)
export class HandoffTimeoutProcessor {
  constructor(private readonly handoff: HandoffService) {}

  @Process(JobName.HandoffTimeout)
  async handle(job: Job<JobPayloads[JobName.HandoffTimeout]>): Promise<void> {
    const { organizationId, threadId, requestedAt } = job.data;
    await this.handoff.timeout(organizationId, threadId, new Date(requestedAt));
  }
}
