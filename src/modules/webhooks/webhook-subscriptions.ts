import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisService } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { WebhookEndpointsRepository, type SubscriptionSnapshot } from './webhook-endpoints.repository.js';

/** "Organization X's subscriptions are at version V": sent after the change committed; `id` names it for the acks. */
interface Notice {
  id: string;
  organizationId: string;
  version: number;
}

interface Waiting {
  expected: number;
  acks: number;
  done: () => void;
}

/**
 * Which event types each organization's enabled endpoints subscribe to, held in every process so that a change
 * nobody subscribed to costs no SQL at all (the turn's round-trip budget).
 *
 * Every subscription change bumps the organization's version in its transaction (`webhook_subscription_versions`),
 * and each process keeps the version of what it holds: a snapshot replaces what a process holds only when it is
 * newer, so a slow or stale reload never wins over a later change. After the change commits, `propagate` announces
 * it on a Redis channel every process listens to; each process loads the organization's subscriptions (unless it
 * holds that version already) and acknowledges; `propagate` resolves once every process that heard the notice
 * (PUBLISH counts them) acknowledged, or after WEBHOOKS_SUBSCRIPTION_SYNC_TIMEOUT_MS (logged). A process that
 * starts later loads everything after it subscribed; a full reload every minute (a periodic task: Redis pub/sub is
 * best effort) catches up on lost notices.
 */
@Injectable()
export class WebhookSubscriptions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookSubscriptions.name);
  private byOrganization = new Map<string, { version: number; types: ReadonlySet<string> }>();
  /** Event types some organization subscribes to. */
  private anywhere: ReadonlySet<string> = new Set();
  private subscriber: Redis | undefined;
  private readonly noticeChannel: string;
  private readonly ackChannel: string;
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly redis: RedisService,
    private readonly config: AppConfig,
  ) {
    this.noticeChannel = redis.key('webhooks', 'subscriptions');
    this.ackChannel = redis.key('webhooks', 'subscriptions', 'acks');
  }

  async onModuleInit(): Promise<void> {
    // Listen first, then load: a change committed before the load is in it, one after it arrives as a notice.
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.noticeChannel) void this.heard(message);
      else if (channel === this.ackChannel) this.acknowledged(message);
    });
    subscriber.on('error', (error) => this.logger.warn({ err: error }, 'webhook subscriptions connection error'));
    await subscriber
      .subscribe(this.noticeChannel, this.ackChannel)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not listen for webhook subscription changes'));
    await this.reloadAll();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /** Whether an enabled endpoint of the organization subscribes to `type` (no I/O). */
  wants(organizationId: string, type: string): boolean {
    return this.byOrganization.get(organizationId)?.types.has(type) ?? false;
  }

  /** Whether any organization's enabled endpoint subscribes to `type` (no I/O). */
  wantsAnywhere(type: string): boolean {
    return this.anywhere.has(type);
  }

  /**
   * After a subscription change of the organization committed at `version`: applies it here, announces it to every
   * process and resolves once they all applied it (or the sync timeout passed).
   */
  async propagate(organizationId: string, version: number): Promise<void> {
    await this.refresh(organizationId, version);
    const notice: Notice = { id: randomUUID(), organizationId, version };
    let done!: () => void;
    const allApplied = new Promise<void>((resolve) => (done = resolve));
    const waiting: Waiting = { expected: Number.POSITIVE_INFINITY, acks: 0, done };
    this.waiting.set(notice.id, waiting);
    const timeoutMs = this.config.webhooks.subscriptionSyncTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      waiting.expected = await this.redis.client.publish(this.noticeChannel, JSON.stringify(notice));
      if (waiting.acks >= waiting.expected) waiting.done();
      const outcome = await Promise.race([allApplied, timedOut]);
      if (outcome === 'timeout') {
        this.logger.warn(
          { organizationId, version, listening: waiting.expected, applied: waiting.acks, timeoutMs },
          'not every process confirmed a webhook subscription change in time; they catch up on their own',
        );
      }
    } catch (error) {
      this.logger.warn({ err: error, organizationId, version }, 'could not announce a webhook subscription change');
    } finally {
      clearTimeout(timer);
      this.waiting.delete(notice.id);
    }
  }

  /** Brings the organization's subscriptions here to `version` at least (no SQL when already there). */
  private async refresh(organizationId: string, version: number): Promise<void> {
    if ((this.byOrganization.get(organizationId)?.version ?? 0) >= version) return;
    const [snapshot] = await this.endpoints.subscriptions(organizationId);
    if (snapshot) this.apply([snapshot]);
  }

  private async heard(message: string): Promise<void> {
    let notice: Partial<Notice>;
    try {
      notice = JSON.parse(message) as Partial<Notice>;
    } catch {
      notice = {};
    }
    if (typeof notice.id !== 'string' || typeof notice.organizationId !== 'string' || typeof notice.version !== 'number') {
      this.logger.warn({ message }, 'unreadable webhook subscription notice ignored');
      return;
    }
    try {
      await this.refresh(notice.organizationId, notice.version);
      await this.redis.client.publish(this.ackChannel, notice.id);
    } catch (error) {
      this.logger.warn({ err: error, organizationId: notice.organizationId }, 'could not apply a webhook subscription change');
    }
  }

  private acknowledged(id: string): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    waiting.acks += 1;
    if (waiting.acks >= waiting.expected) waiting.done();
  }

  /** Loads every organization's subscriptions: at start, then as a periodic task. */
  @JobHandler(JobName.ReloadWebhookSubscriptions)
  async reloadAll(): Promise<void> {
    this.apply(await this.endpoints.subscriptions(null));
  }

  /**
   * Takes each snapshot that is newer than what this process holds for its organization. An organization missing from
   * a full snapshot keeps what it had: its row may have committed after the snapshot was read (an organization that
   * was deleted keeps a harmless entry: its messages find no endpoint).
   */
  private apply(snapshots: SubscriptionSnapshot[]): void {
    for (const snapshot of snapshots) {
      const version = Number(snapshot.version);
      if ((this.byOrganization.get(snapshot.organization_id)?.version ?? 0) >= version) continue;
      this.byOrganization.set(snapshot.organization_id, { version, types: new Set(snapshot.events) });
    }
    this.anywhere = new Set([...this.byOrganization.values()].flatMap((entry) => [...entry.types]));
  }
}
