import { Injectable } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName, type JobPayloads } from '../../queue/job-map.js';
import { HandoffService } from './handoff.service.js';

/** A handoff request's timeout: thin, the compare-and-set in HandoffService makes it act once. */
@Injectable()
export class HandoffTimeoutProcessor {
  constructor(private readonly handoff: HandoffService) {}

  @JobHandler(JobName.HandoffTimeout)
  async handle(payload: JobPayloads[JobName.HandoffTimeout]): Promise<void> {
    await this.handoff.timeout(payload.organizationId, payload.threadId, new Date(payload.requestedAt));
  }
}
