import { Injectable } from '@nestjs/common';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import type { ThreadsDeleted } from '../../common/bus/event-map.js';
import { ReplayBufferRepository } from './replay-buffer.repository.js';

/**
 * Deleted threads take their stream replay buffers with them (docs/governance.md): a resume of an erased turn finds
 * nothing to replay. The deleting process handles it (after the commit, before the unit of work resolves, so erasure answers once the buffers are gone);
 * Redis is shared, so once is enough.
 */
@Injectable()
export class ReplayBufferEraser {
  constructor(private readonly buffers: ReplayBufferRepository) {}

  @OnBusEvent('threads.deleted')
  async discard(event: ThreadsDeleted): Promise<void> {
    if (event.interactionIds.length > 0) await this.buffers.discard(event.interactionIds);
  }
}
