import { Injectable } from '@nestjs/common';
import type {
  ChannelMessageStatusChanged,
  EventCompleted,
  EventFailed,
  LiveRevisionChange,
  ThreadOpened,
  ThreadsDeleted,
  TurnRecorded,
} from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { newId } from '../../common/ids/new-id.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { TurnReplyDto, WebhookData } from './dto/webhook-payloads.dto.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import type { WebhookEventType } from './webhooks.constants.js';
import { wakeDelivery } from './webhook-wake.js';
import { JobQueue } from '../../queue/job-queue.js';

/** One message to send to the subscribed endpoints of a project. */
export interface WebhookMessage<T extends WebhookEventType = WebhookEventType> {
  organizationId: string;
  /** The project whose endpoints receive it; when null, the agent's project. */
  projectId: string | null;
  agentId: string | null;
  type: T;
  /** The thread it is about, if any: the message then carries the thread's next sequence number. */
  threadId: string | null;
  occurredAt: Date;
  data: WebhookData[T];
}

/** Whether the organization's endpoints subscribe to `type`; for a null payload, any organization's (no I/O). */
const wanted = (outbox: WebhookOutbox, change: { organizationId: string } | null, type: WebhookEventType): boolean =>
  change ? outbox.wants(change.organizationId, type) : outbox.wantsAnywhere(type);

/**
 * The outbox of outbound webhooks: an in-transaction subscriber of the bus changes it reports. Its delivery rows
 * commit or roll back with the change, and are enqueued once it has committed (`UnitOfWork.afterCommit`). Each
 * subscription's `wants` answers from memory (WebhookSubscriptions), so a change nobody subscribed to costs nothing:
 * its publisher needs no transaction for it.
 */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly subscriptions: WebhookSubscriptions,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly jobs: JobQueue,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Whether an enabled endpoint of the organization subscribes to `type` (no I/O). */
  wants(organizationId: string, type: WebhookEventType): boolean {
    return this.subscriptions.wants(organizationId, type);
  }

  /** Whether an enabled endpoint of any organization subscribes to `type` (no I/O). */
  wantsAnywhere(type: WebhookEventType): boolean {
    return this.subscriptions.wantsAnywhere(type);
  }

  /**
   * Thread erasure and retention: the deliveries of these threads go with them, pending ones too — their bodies
   * carry the turns' text, and an erased conversation must not leave later.
   */
  @OnBusEvent('threads.deleted', { phase: 'transaction' })
  async threadsDeleted(deleted: ThreadsDeleted): Promise<void> {
    deleted.dependents.webhook_deliveries =
      (deleted.dependents.webhook_deliveries ?? 0) + (await this.deliveries.deleteForThreads(deleted.threadIds));
  }

  /** `turn.completed`, and `thread.created` for a turn that opened its thread. */
  @OnBusEvent('turn.recorded', {
    phase: 'transaction',
    wants: (outbox: WebhookOutbox, turn) =>
      wanted(outbox, turn, 'turn.completed') || ((!turn || turn.newThread !== null) && wanted(outbox, turn, 'thread.created')),
  })
  async turnRecorded(turn: TurnRecorded): Promise<void> {
    const base = { organizationId: turn.organizationId, projectId: turn.projectId, agentId: turn.agentId, threadId: turn.threadId };
    if (turn.newThread && this.wants(turn.organizationId, 'thread.created')) {
      await this.record({
        ...base,
        type: 'thread.created',
        occurredAt: turn.createdAt,
        data: {
          thread_id: turn.threadId,
          agent_id: turn.agentId,
          user_id: turn.userId,
          external_id: turn.newThread.externalId,
          title: turn.newThread.title,
          channel: null,
          created_at: turn.createdAt.toISOString(),
        },
      });
    }
    if (this.wants(turn.organizationId, 'turn.completed')) {
      await this.record({
        ...base,
        type: 'turn.completed',
        occurredAt: turn.createdAt,
        data: {
          thread_id: turn.threadId,
          interaction_id: turn.interactionId,
          agent_id: turn.agentId,
          version_id: turn.versionId,
          version_tag: turn.versionTag,
          source: turn.source,
          event_id: turn.eventId ?? null,
          user_id: turn.userId,
          user_text: turn.userText,
          usage: turn.usage,
          reply: { message_id: turn.replyMessageId, text: turn.replyText, ...turn.reply } as TurnReplyDto,
          created_at: turn.createdAt.toISOString(),
        },
      });
    }
  }

  /** `thread.created` for a thread opened before its first turn (a channel conversation). */
  @OnBusEvent('thread.opened', { phase: 'transaction', wants: (outbox: WebhookOutbox, thread) => wanted(outbox, thread, 'thread.created') })
  async threadOpened(thread: ThreadOpened): Promise<void> {
    const createdAt = thread.createdAt ?? new Date();
    await this.record({
      organizationId: thread.organizationId,
      projectId: thread.projectId,
      agentId: thread.agentId,
      threadId: thread.id,
      type: 'thread.created',
      occurredAt: createdAt,
      data: {
        thread_id: thread.id,
        agent_id: thread.agentId,
        user_id: thread.userId,
        external_id: thread.externalId,
        title: thread.title,
        channel: thread.channel?.channel ?? null,
        created_at: createdAt.toISOString(),
      },
    });
  }

  /** `version.published`: a publish, or a rename that re-published the live revision. */
  @OnBusEvent('version.published', {
    phase: 'transaction',
    wants: (outbox: WebhookOutbox, change) => wanted(outbox, change, 'version.published'),
  })
  async versionPublished(change: LiveRevisionChange): Promise<void> {
    if (change.reason === 'agent_deleted' || !change.versionId || !change.revisionId || !change.versionTag) return;
    await this.record({
      organizationId: change.organizationId,
      projectId: null,
      agentId: change.agentId,
      threadId: null,
      type: 'version.published',
      occurredAt: new Date(),
      data: {
        agent_id: change.agentId,
        version_id: change.versionId,
        revision_id: change.revisionId,
        version_tag: change.versionTag,
        reason: change.reason,
      },
    });
  }

  @OnBusEvent('channel.message.status', {
    phase: 'transaction',
    wants: (outbox: WebhookOutbox, change) => wanted(outbox, change, 'channel.message.status'),
  })
  async channelMessageStatus(change: ChannelMessageStatusChanged): Promise<void> {
    await this.record({
      organizationId: change.organizationId,
      projectId: null,
      agentId: change.agentId,
      threadId: change.threadId,
      type: 'channel.message.status',
      occurredAt: new Date(),
      data: {
        message_id: change.messageId,
        thread_id: change.threadId,
        agent_id: change.agentId,
        channel: change.channel,
        status: change.status,
        error: change.error,
      },
    });
  }

  /**
   * An accepted event's outcome. The events worker publishes it once the outcome has committed, so this runs in a
   * transaction of its own: a crash between that commit and this write loses the message.
   */
  @OnBusEvent('event.completed', {
    phase: 'transaction',
    wants: (outbox: WebhookOutbox, event) => wanted(outbox, event, 'event.completed'),
  })
  async eventCompleted(event: EventCompleted): Promise<void> {
    await this.record({
      organizationId: event.organizationId,
      projectId: null,
      agentId: event.agentId,
      threadId: event.threadId,
      type: 'event.completed',
      occurredAt: new Date(),
      data: {
        event_id: event.eventId,
        status: 'completed',
        agent_id: event.agentId,
        external_thread_id: event.externalThreadId,
        thread_id: event.threadId,
        interaction_id: event.interactionId,
        error: null,
      },
    });
  }

  @OnBusEvent('event.failed', { phase: 'transaction', wants: (outbox: WebhookOutbox, event) => wanted(outbox, event, 'event.failed') })
  async eventFailed(event: EventFailed): Promise<void> {
    await this.record({
      organizationId: event.organizationId,
      projectId: null,
      agentId: event.agentId,
      threadId: null,
      type: 'event.failed',
      occurredAt: new Date(),
      data: {
        event_id: event.eventId,
        status: 'failed',
        agent_id: event.agentId,
        external_thread_id: event.externalThreadId,
        thread_id: null,
        interaction_id: null,
        error: event.error,
      },
    });
  }

  /** Writes one delivery per subscribed endpoint of the project, enqueued after the transaction commits. */
  private async record<T extends WebhookEventType>(message: WebhookMessage<T>): Promise<void> {
    const targets = await this.endpoints.targets(message);
    if (targets.endpointIds.length === 0) return;
    const body = JSON.stringify({
      type: message.type,
      timestamp: message.occurredAt.toISOString(),
      organization_id: message.organizationId,
      project_id: targets.projectId,
      thread_id: message.threadId,
      sequence: targets.sequence,
      data: message.data,
    });
    const rows = targets.endpointIds.map((endpointId) => ({
      id: newId(),
      endpointId,
      organizationId: message.organizationId,
      eventType: message.type,
      threadId: message.threadId,
      sequence: targets.sequence,
      body,
    }));
    await this.deliveries.insert(rows);
    this.unitOfWork.afterCommit(() => {
      for (const row of rows) wakeDelivery(this.jobs, row.id, 0);
    });
  }
}
