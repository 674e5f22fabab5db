import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { ChannelInboundService } from './channel-inbound.service.js';
import { ChannelOutboundService } from './channel-outbound.service.js';

/** Deliveries handed to the provider at once, per process. */
const CONCURRENCY = 4;

/**
 * One job per outbound message: one delivery attempt (Bull retries with backoff while it throws). Once a message
 * left the queue, the next reply of its conversation may be recorded (replies go out in order).
 */
@Processor(QueueName.ChannelsOutbound)
export class ChannelsOutboundProcessor {
  constructor(
    private readonly outbound: ChannelOutboundService,
    private readonly inbound: ChannelInboundService,
  ) {}

  @Process({ name: JobName.DeliverChannelMessage, concurrency: CONCURRENCY })
  async deliver(job: Job<JobPayloads[JobName.DeliverChannelMessage]>): Promise<void> {
    const settled = await this.outbound.deliver(job);
    if (settled) await this.inbound.answerInOrder(settled.threadId);
  }
}
