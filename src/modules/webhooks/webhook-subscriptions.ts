import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import type { WebhookEndpointsChanged } from '../../common/bus/event-map.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** A full reload now and then, in case a change notice was lost (Redis pub/sub is best effort). */
const FULL_RELOAD_MS = 60_000;

/**
 * Which event types each organization's enabled endpoints subscribe to, held in every process so that a change
 * nobody subscribed to costs no SQL at all (the turn's round-trip budget). Loaded at start, reloaded per organization
 * on `webhook.endpoints_changed` (broadcast to every process) and in full once a minute.
 */
@Injectable()
export class WebhookSubscriptions implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(WebhookSubscriptions.name);
  private byOrganization = new Map<string, ReadonlySet<string>>();
  /** Event types some organization subscribes to. */
  private anywhere: ReadonlySet<string> = new Set();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  async onModuleInit(): Promise<void> {
    await this.reloadAll();
    this.timer = setInterval(
      () => void this.reloadAll().catch((error: unknown) => this.logger.warn({ err: error }, 'reload failed')),
      FULL_RELOAD_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Whether an enabled endpoint of the organization subscribes to `type` (no I/O). */
  wants(organizationId: string, type: string): boolean {
    return this.byOrganization.get(organizationId)?.has(type) ?? false;
  }

  /** Whether any organization's enabled endpoint subscribes to `type` (no I/O). */
  wantsAnywhere(type: string): boolean {
    return this.anywhere.has(type);
  }

  @OnBusEvent('webhook.endpoints_changed')
  async reload(change: WebhookEndpointsChanged): Promise<void> {
    const [row] = await this.endpoints.subscriptions(change.organizationId);
    if (row) this.byOrganization.set(change.organizationId, new Set(row.events));
    else this.byOrganization.delete(change.organizationId);
    this.anywhere = new Set([...this.byOrganization.values()].flatMap((types) => [...types]));
  }

  private async reloadAll(): Promise<void> {
    const rows = await this.endpoints.subscriptions(null);
    this.byOrganization = new Map(rows.map((row) => [row.organization_id, new Set(row.events)]));
    this.anywhere = new Set(rows.flatMap((row) => row.events));
  }
}
