import { Injectable } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName, type JobAttempt, type JobPayloads } from '../../queue/job-map.js';
import { ChannelInboundService } from './channel-inbound.service.js';
import { ChannelOutboundService } from './channel-outbound.service.js';

/** The channels' jobs, where workers run: outbound delivery, and the sweeps that pick up what a crash left behind. */
@Injectable()
export class ChannelsProcessor {
  constructor(
    private readonly outbound: ChannelOutboundService,
    private readonly inbound: ChannelInboundService,
  ) {}

  /** One delivery attempt per job. Once a message left the queue, the next reply of its conversation may be recorded. */
  @JobHandler(JobName.DeliverChannelMessage)
  async deliver(payload: JobPayloads[JobName.DeliverChannelMessage], attempt: JobAttempt): Promise<void> {
    const settled = await this.outbound.deliver(payload.messageId, attempt);
    if (settled) await this.inbound.answerInOrder(settled.threadId);
  }

  @JobHandler(JobName.SweepChannelsInbound)
  sweepInbound(): Promise<void> {
    return this.inbound.sweep();
  }

  @JobHandler(JobName.SweepChannelsOutbound)
  sweepOutbound(): Promise<void> {
    return this.outbound.sweep();
  }
}
