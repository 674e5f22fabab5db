import { Injectable } from '@nestjs/common';
import type { EventCompleted, EventFailed, LiveRevisionChange } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { newId } from '../../common/ids/new-id.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { NewThread, TurnRecord } from '../conversations/conversations.types.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookJobs } from './webhook-jobs.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import type { WebhookEventType } from './webhooks.constants.js';

/** One message to send to the subscribed endpoints of a project. */
export interface WebhookMessage {
  organizationId: string;
  /** The project whose endpoints receive it; when null, the agent's project. */
  projectId: string | null;
  agentId: string | null;
  type: WebhookEventType;
  /** The thread it is about, if any: the message then carries the thread's next sequence number. */
  threadId: string | null;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** An outbound channel message changed status (delivery reports, sends, failures). */
export interface ChannelMessageStatusChange {
  organizationId: string;
  agentId: string;
  threadId: string;
  messageId: string;
  channel: string;
  status: string;
  error: string | null;
}

/**
 * The outbox of outbound webhooks. Sources call it inside the transaction of the change they report: the delivery
 * rows commit or roll back with the change, and are enqueued once it has committed (`UnitOfWork.afterCommit`).
 * Every source first asks `wants()`, which answers from memory: a change nobody subscribed to costs nothing.
 */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly subscriptions: WebhookSubscriptions,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly jobs: WebhookJobs,
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

  /** Whether recording this turn produces any message (`turn.completed`, and `thread.created` for a new thread). */
  wantsTurn(turn: Pick<TurnRecord, 'organizationId' | 'newThread'>): boolean {
    return (
      this.wants(turn.organizationId, 'turn.completed') || (turn.newThread !== null && this.wants(turn.organizationId, 'thread.created'))
    );
  }

  /**
   * Thread erasure and retention: the deliveries of these threads go with them, pending ones too — their bodies
   * carry the turns' text, and an erased conversation must not leave later. Call in the deletion's transaction.
   */
  deleteForThreads(threadIds: string[]): Promise<number> {
    return this.deliveries.deleteForThreads(threadIds);
  }

  /** The messages of a recorded turn; call in the turn's transaction. */
  async turnRecorded(turn: TurnRecord): Promise<void> {
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
          reply: { message_id: turn.replyMessageId, text: turn.replyText, ...turn.reply },
          created_at: turn.createdAt.toISOString(),
        },
      });
    }
  }

  /** `thread.created` for a thread opened before its first turn (a channel conversation); call in its transaction. */
  async threadCreated(thread: NewThread): Promise<void> {
    if (!this.wants(thread.organizationId, 'thread.created')) return;
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

  /** `version.published`; call in the publish's transaction. */
  async versionPublished(change: LiveRevisionChange, projectId: string): Promise<void> {
    if (!this.wants(change.organizationId, 'version.published')) return;
    await this.record({
      organizationId: change.organizationId,
      projectId,
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

  /** `channel.message.status`; call in the transaction of the status change. */
  async channelMessageStatus(change: ChannelMessageStatusChange): Promise<void> {
    if (!this.wants(change.organizationId, 'channel.message.status')) return;
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
   * An accepted event's outcome, from the bus (the events worker emits it once the outcome has committed): a crash
   * between that commit and this write loses the message — the one source without a transaction of its own here.
   */
  @OnBusEvent('event.completed')
  async eventCompleted(event: EventCompleted): Promise<void> {
    if (!this.wants(event.organizationId, 'event.completed')) return;
    await this.unitOfWork.run(() =>
      this.record({
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
      }),
    );
  }

  @OnBusEvent('event.failed')
  async eventFailed(event: EventFailed): Promise<void> {
    if (!this.wants(event.organizationId, 'event.failed')) return;
    await this.unitOfWork.run(() =>
      this.record({
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
      }),
    );
  }

  /** Writes one delivery per subscribed endpoint of the project, enqueued after the transaction commits. */
  async record(message: WebhookMessage): Promise<void> {
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
      for (const row of rows) this.jobs.enqueue(row.id, 0);
    });
  }
}
