import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import type { HandoffThread, ThreadControlChanged, ThreadMessageCreated } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { JobQueue } from '../../queue/job-queue.js';
import type { FeedControlEventDto, FeedMessageEventDto } from './dto/handoff.dto.js';
import { HandoffFeedRepository } from './handoff-feed.repository.js';
import { HandoffService } from './handoff.service.js';

/** The wire payload of a message on the feeds and WebSocket sessions. */
export function feedMessage(created: ThreadMessageCreated): FeedMessageEventDto {
  const { message } = created;
  return {
    thread_id: created.threadId,
    agent_id: created.agentId,
    message: {
      id: message.id,
      created_at: message.createdAt.toISOString(),
      text: message.text,
      sender: { id: message.authorId, type: message.kind === 'operator' ? 'operator' : 'user' },
    },
  };
}

/** The wire payload of a control change on the feeds and WebSocket sessions. */
export function feedControl(change: ThreadControlChanged): FeedControlEventDto {
  return {
    thread_id: change.threadId,
    agent_id: change.agentId,
    control: change.control,
    change: change.change,
    assignee: change.assignee,
    reason: change.reason,
    text: change.note.text,
    at: change.at.toISOString(),
  };
}

/**
 * After a handoff change commits, in the process that made it: the event goes onto the thread's and the
 * organization inbox's feeds (HandoffFeedRepository), then `thread.live` tells every process's live surfaces (the
 * WebSocket sessions following the thread, the open thread and inbox streams). A request with a timeout gets its
 * delayed job here. (SMS/WhatsApp: channels subscribes to the same changes; webhooks and audit ran in the transaction.)
 */
@Injectable()
export class HandoffRelay {
  private readonly logger = new Logger(HandoffRelay.name);

  constructor(
    private readonly feeds: HandoffFeedRepository,
    private readonly bus: EventBus,
    private readonly handoff: HandoffService,
    private readonly jobs: JobQueue,
  ) {}

  @OnBusEvent('thread.control_changed')
  async controlChanged(change: ThreadControlChanged): Promise<void> {
    if (change.change === 'requested' && change.requestedAt) await this.scheduleTimeout(change, change.requestedAt);
    await this.relay(change, 'control', 'everyone', { ...feedControl(change) });
  }

  /** Operators' messages reach the end user and the inbox; the end user's own only the inbox. */
  @OnBusEvent('thread.message_created')
  async messageCreated(created: ThreadMessageCreated): Promise<void> {
    await this.relay(created, 'message', created.message.kind === 'operator' ? 'everyone' : 'operators', { ...feedMessage(created) });
  }

  private async relay(
    thread: HandoffThread,
    event: 'message' | 'control',
    audience: 'everyone' | 'operators',
    data: Record<string, unknown>,
  ): Promise<void> {
    const inbox = { kind: 'inbox' as const, id: thread.organizationId };
    const feeds = audience === 'everyone' ? [{ kind: 'thread' as const, id: thread.threadId }, inbox] : [inbox];
    // Without the feed (Redis failing) the sessions are still told; the streams cannot replay the event (the transcript
    // keeps it), so the failure is logged.
    await this.feeds
      .append(feeds, event, JSON.stringify(data))
      .catch((error: unknown) => this.logger.error({ err: error, threadId: thread.threadId }, 'could not append to the handoff feeds'));
    await this.bus.publish('thread.live', {
      organizationId: thread.organizationId,
      agentId: thread.agentId,
      threadId: thread.threadId,
      event,
      audience,
      data,
    });
  }

  /** One delayed job per request (its id names the request): Redis keeps it across restarts; it acts once (HandoffService.timeout). */
  private async scheduleTimeout(change: ThreadControlChanged, requestedAt: Date): Promise<void> {
    const seconds = await this.handoff.timeoutSeconds(change.organizationId, change.agentId);
    if (!seconds) return;
    await this.jobs
      .enqueue(
        JobName.HandoffTimeout,
        { organizationId: change.organizationId, threadId: change.threadId, requestedAt: requestedAt.toISOString() },
        { jobId: `${change.threadId}:${requestedAt.getTime()}`, delayMs: seconds * 1000 },
      )
      .catch((error: unknown) => this.logger.error({ err: error, threadId: change.threadId }, 'could not schedule the handoff timeout'));
  }
}
