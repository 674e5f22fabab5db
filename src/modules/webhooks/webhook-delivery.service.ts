import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { OutboundHttpClient, OutboundRequestError } from '../../common/outbound/outbound-http.client.js';
import { signPayload } from '../../common/outbound/webhook-signature.js';
import { AppConfig } from '../../config/app-config.js';
import { WebhookDeliveriesRepository, type ClaimedDelivery, type WebhookAttempt } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository, type WebhookEndpointRow } from './webhook-endpoints.repository.js';
import { WebhookSecrets, WebhookSecretUnreadableError } from './webhook-secrets.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { JobQueue } from '../../queue/job-queue.js';
import { RESPONSE_BODY_LIMIT, webhookMessageId } from './webhooks.constants.js';
import { wakeDelivery } from './webhook-wake.js';

/** ±20 % jitter, so that retries of many deliveries failing together spread out. */
const JITTER = 0.2;

/**
 * Sends webhook deliveries. A worker slot (one job of the `webhooks` queue) claims the next due delivery in
 * PostgreSQL — fairly between organizations, none holding more than WEBHOOKS_CONCURRENCY_PER_ORGANIZATION attempts
 * at once — signs and POSTs it, records the outcome, schedules the retry, and claims again until nothing may be taken.
 * A claim takes a delivery only while it is pending, due and held by no other worker: duplicate jobs claim nothing.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private stopping = false;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly jobs: JobQueue,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly secrets: WebhookSecrets,
    private readonly http: OutboundHttpClient,
    private readonly bus: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** Sends due deliveries one after another while there are some this slot may take; returns how many it sent. */
  async work(): Promise<number> {
    const { timeoutMs, concurrencyPerOrganization } = this.config.webhooks;
    let sent = 0;
    while (!this.stopping) {
      const { delivery, raced } = await this.deliveries.claimNext(concurrencyPerOrganization, timeoutMs * 2 + 5000);
      if (delivery) {
        await this.attempt(delivery);
        sent += 1;
      } else if (!raced) break;
    }
    return sent;
  }

  /** Shutting down: each slot finishes the attempt it is making and claims nothing more. */
  stop(): void {
    this.stopping = true;
  }

  /** One attempt at a claimed delivery; returns what became of it. */
  async attempt(delivery: ClaimedDelivery): Promise<'delivered' | 'retrying' | 'failed'> {
    const { retryScheduleMs, disableAfterFailures } = this.config.webhooks;
    const at = new Date();
    const number = delivery.attempts + 1;
    if (!delivery.enabled) {
      await this.deliveries.recordAttempt(delivery.id, failure(number, at, 'endpoint disabled'), { status: 'failed', nextAttemptAt: null });
      return 'failed';
    }
    const result = await this.send(delivery, at);
    const record: WebhookAttempt = { attempt: number, at: at.toISOString(), ...result };
    if (result.status_code !== null && result.status_code >= 200 && result.status_code < 300) {
      await this.deliveries.recordAttempt(delivery.id, record, { status: 'delivered', nextAttemptAt: null });
      await this.endpoints.recordSuccess(delivery.endpoint_id);
      return 'delivered';
    }
    if (result.status_code === 410) {
      await this.deliveries.recordAttempt(delivery.id, record, { status: 'failed', nextAttemptAt: null });
      const disabled = await this.endpoints.disable(delivery.endpoint_id, 'the receiver answered 410 Gone');
      if (disabled) this.announceDisabled(disabled, 'gone');
      return 'failed';
    }
    const disabled = await this.endpoints.recordFailure(delivery.endpoint_id, disableAfterFailures);
    const delay = retryScheduleMs[delivery.attempts];
    if (disabled || delay === undefined) {
      await this.deliveries.recordAttempt(delivery.id, record, { status: 'failed', nextAttemptAt: null });
      if (disabled) this.announceDisabled(disabled, 'consecutive_failures');
      return 'failed';
    }
    const delayMs = Math.round(delay * (1 - JITTER + Math.random() * 2 * JITTER));
    await this.deliveries.recordAttempt(delivery.id, record, { status: 'pending', nextAttemptAt: new Date(Date.now() + delayMs) });
    wakeDelivery(this.jobs, delivery.id, number, { delayMs });
    return 'retrying';
  }

  /** Enqueues again the due deliveries whose job was lost; returns how many. */
  async sweep(): Promise<number> {
    const stale = await this.deliveries.stale(this.config.webhooks.staleMs, 100);
    for (const row of stale) wakeDelivery(this.jobs, row.id, row.attempts, { tag: 'sweep' });
    return stale.length;
  }

  private async send(delivery: ClaimedDelivery, at: Date): Promise<Omit<WebhookAttempt, 'attempt' | 'at'>> {
    const id = webhookMessageId(delivery.id);
    const secrets = this.signingSecrets(delivery);
    if (!secrets) {
      return {
        status_code: null,
        latency_ms: null,
        error: 'the signing secret cannot be decrypted (see the service log)',
        response_body: null,
      };
    }
    const started = Date.now();
    try {
      const response = await this.http.request({
        method: 'POST',
        url: delivery.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'agent-service-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signPayload(secrets, id, at, delivery.body),
        },
        body: delivery.body,
        timeoutMs: this.config.webhooks.timeoutMs,
        maxResponseBytes: RESPONSE_BODY_LIMIT,
      });
      return {
        status_code: response.status,
        latency_ms: Math.round(response.latencyMs),
        error: response.status >= 200 && response.status < 300 ? null : `the receiver answered ${response.status}`,
        response_body: response.body.length > 0 ? response.body.toString('utf8').replaceAll('\u0000', '') : null,
      };
    } catch (error) {
      if (!(error instanceof OutboundRequestError)) this.logger.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt failed');
      return {
        status_code: null,
        latency_ms: Date.now() - started,
        error: error instanceof OutboundRequestError ? error.reason : 'request failed',
        response_body: null,
      };
    }
  }

  /** The secrets that sign (current, and previous during an overlap), or undefined when no configured key opens them. */
  private signingSecrets(delivery: ClaimedDelivery): string[] | undefined {
    try {
      const previous = this.secrets.previous(delivery.endpoint_id, delivery);
      return [this.secrets.current(delivery.endpoint_id, delivery), ...(previous === null ? [] : [previous])];
    } catch (error) {
      if (!(error instanceof WebhookSecretUnreadableError)) throw error;
      this.logger.error({ webhookId: delivery.endpoint_id, deliveryId: delivery.id }, error.message);
      return undefined;
    }
  }

  private announceDisabled(endpoint: WebhookEndpointRow, reason: 'gone' | 'consecutive_failures'): void {
    this.logger.warn({ webhookId: endpoint.id, reason }, 'webhook endpoint disabled');
    // Not waited for: a process that still thinks the organization subscribed only runs one query that finds no endpoint.
    void this.endpoints
      .bumpSubscriptionVersion(endpoint.organization_id)
      .then((version) => this.subscriptions.propagate(endpoint.organization_id, version))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not announce a disabled endpoint'));
    void this.bus.publish('webhook.disabled', {
      organizationId: endpoint.organization_id,
      projectId: endpoint.project_id,
      webhookId: endpoint.id,
      reason,
      consecutiveFailures: endpoint.consecutive_failures,
    });
  }
}

function failure(attempt: number, at: Date, error: string): WebhookAttempt {
  return { attempt, at: at.toISOString(), status_code: null, latency_ms: null, error, response_body: null };
}
