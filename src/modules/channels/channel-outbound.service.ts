import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { JobName, type JobAttempt } from '../../queue/job-map.js';
import { JobQueue } from '../../queue/job-queue.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { ChannelMessagesRepository, type ChannelStatusRow } from './channel-messages.repository.js';
import type { Channel } from './channels.constants.js';
import { CHANNEL_PROVIDER, ChannelProviderError, type ChannelProvider } from './providers/channel-provider.js';

/** Why an outbound message is undelivered when the service has no provider to hand it to. */
export const NO_PROVIDER_REASON =
  'No channel provider is configured (set CHANNEL_PROVIDER_BASE_URL, CHANNEL_PROVIDER_ACCOUNT_SID and CHANNEL_PROVIDER_AUTH_TOKEN); the message was recorded but not sent';

const SWEEP_AFTER_SECONDS = 120;

/**
 * Outbound channel messages: recorded in `channel_messages` first (the durable state), then handed to the
 * provider by jobs on `channels-outbound` (ChannelsProcessor) — one job per message (job id = message id), retried
 * with the backoff of the job map on retryable failures; a message that runs out of attempts, or that the
 * provider refuses outright, ends `undelivered` with the reason.
 */
@Injectable()
export class ChannelOutboundService {
  private readonly logger = new Logger('ChannelOutbound');

  constructor(
    private readonly jobs: JobQueue,
    @Inject(CHANNEL_PROVIDER) private readonly provider: ChannelProvider,
    private readonly messages: ChannelMessagesRepository,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly bus: EventBus,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Applies a status change of an outbound message; with a subscriber of `channel.message.status` anywhere (a
   * webhook), the change is published in the same transaction.
   */
  async changeStatus(change: () => Promise<ChannelStatusRow | undefined>): Promise<void> {
    if (!this.bus.wants('channel.message.status', null)) {
      await change();
      return;
    }
    await this.unitOfWork.run(async () => {
      const row = await change();
      if (!row) return;
      await this.bus.publish('channel.message.status', {
        organizationId: row.organization_id,
        agentId: row.agent_id,
        threadId: row.thread_id,
        messageId: row.id,
        channel: row.channel,
        status: row.status,
        error: row.error,
      });
    });
  }

  /** The initial status of a new outbound message: queued for the provider, or undelivered when there is none. */
  initialStatus(): { status: 'queued' | 'undelivered'; error: string | null } {
    return this.provider.configured ? { status: 'queued', error: null } : { status: 'undelivered', error: NO_PROVIDER_REASON };
  }

  /** Queues delivery of a recorded (queued) message. Safe to repeat: one job per message id. */
  enqueue(messageId: string): Promise<void> {
    return this.jobs.enqueue(JobName.DeliverChannelMessage, { messageId }, { jobId: messageId });
  }

  /** Enqueues after the row is committed; a failure here leaves the row queued for the sweeper. */
  enqueueQuietly(messageId: string): Promise<void> {
    return this.jobs.tryEnqueue(JobName.DeliverChannelMessage, { messageId }, { jobId: messageId });
  }

  /**
   * One delivery attempt. Throws only to ask Bull for another attempt. Returns the message's thread once the
   * message left the queue (sent or undelivered), undefined when there was nothing to do.
   */
  async deliver(messageId: string, attempt: JobAttempt): Promise<{ threadId: string } | undefined> {
    const message = await this.messages.beginAttempt(messageId);
    if (!message) return undefined; // already sent or given up: nothing to do
    try {
      const accepted = await this.provider.send({
        channel: message.channel,
        from: message.from_number,
        to: message.to_number,
        body: message.body,
        statusCallbackUrl: this.statusCallbackUrl(message.channel),
      });
      await this.changeStatus(() => this.messages.markSent(message.id, accepted.providerMessageId));
      this.metrics.channelMessage('outbound', 'sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retryable = error instanceof ChannelProviderError ? error.retryable : true;
      const attemptsLeft = attempt.allowed - (attempt.made + 1);
      if (!retryable || attemptsLeft <= 0) {
        const why = retryable ? `${reason} (gave up after ${attempt.made + 1} attempts)` : reason;
        await this.changeStatus(() => this.messages.markUndelivered(message.id, why));
        this.logger.warn({ messageId: message.id, reason: why }, 'channel message undelivered');
        this.metrics.channelMessage('outbound', 'failed');
        return { threadId: message.thread_id };
      }
      await this.messages.recordAttemptError(message.id, reason);
      this.metrics.channelMessage('outbound', 'retried');
      throw error;
    }
    return { threadId: message.thread_id };
  }

  private statusCallbackUrl(channel: Channel): string | undefined {
    const base = this.config.channels.publicBaseUrl;
    return base ? `${base}${this.config.http.basePath}/messaging/v1/channels/${channel}/status` : undefined;
  }

  /** Re-enqueues messages whose job was lost (e.g. Redis unreachable right after the commit); a periodic task. */
  async sweep(): Promise<void> {
    try {
      for (const id of await this.messages.staleQueued(SWEEP_AFTER_SECONDS, 100)) {
        if (!(await this.jobs.has(JobName.DeliverChannelMessage, id))) await this.enqueue(id);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'channel outbound sweep failed');
    }
  }
}
