import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { checkOutboundUrl } from '../../common/outbound/outbound-policy.js';
import { generateWebhookSecret } from '../../common/outbound/webhook-signature.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { AppConfig } from '../../config/app-config.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { Principal } from '../auth/principal.js';
import { ProjectsService } from '../projects/projects.service.js';
import type {
  CreateWebhookDto,
  ListWebhookDeliveriesQueryDto,
  ListWebhooksQueryDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
  WebhookDeliveryResponseDto,
  WebhookResponseDto,
  WebhookWithSecretResponseDto,
} from './dto/webhook.dto.js';
import { WebhookDeliveriesRepository, type WebhookDeliveryRow } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository, type WebhookEndpointRow } from './webhook-endpoints.repository.js';
import { WebhookSecrets, WebhookSecretUnreadableError } from './webhook-secrets.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WEBHOOK_LIMIT_REACHED, webhookMessageId } from './webhooks.constants.js';
import { wakeDelivery } from './webhook-wake.js';
import { JobQueue } from '../../queue/job-queue.js';
import { hashSecret } from '../auth/secrets.js';

/** A project's webhook endpoints and their delivery log (management surface). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly secrets: WebhookSecrets,
    private readonly jobs: JobQueue,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
    private readonly bus: EventBus,
  ) {}

  async create(who: Principal, projectId: string, dto: CreateWebhookDto): Promise<WebhookWithSecretResponseDto> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    const url = safeUrl(dto.url);
    const id = newId();
    const secret = generateWebhookSecret();
    const row = await this.unitOfWork.run(async () => {
      await this.withinLimits(who.organizationId, project.id);
      const created = await this.endpoints.insert({
        id,
        organizationId: who.organizationId,
        projectId: project.id,
        url,
        description: dto.description ?? '',
        events: dto.events,
        enabled: dto.enabled ?? true,
        secret: this.secrets.seal(id, secret),
      });
      await this.bus.publish('webhook.create', {
        actor: who,
        resourceType: 'webhook',
        resourceId: created.id,
        after: this.summary(created),
      });
      return { created, version: await this.endpoints.bumpSubscriptionVersion(who.organizationId) };
    });
    await this.subscriptions.propagate(who.organizationId, row.version);
    return { ...toWebhookResponse(row.created), secret };
  }

  async list(who: Principal, projectId: string, query: ListWebhooksQueryDto, request: PageRequest): Promise<Page<WebhookResponseDto>> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    return this.endpoints.page(who.organizationId, project.id, query, request, toWebhookResponse);
  }

  async get(who: Principal, projectId: string, webhookId: string): Promise<WebhookResponseDto> {
    return toWebhookResponse(await this.visible(who, projectId, webhookId));
  }

  async update(who: Principal, projectId: string, webhookId: string, dto: UpdateWebhookDto): Promise<WebhookResponseDto> {
    const url = dto.url === undefined ? undefined : safeUrl(dto.url);
    const row = await this.unitOfWork.run(async () => {
      const before = await this.visible(who, projectId, webhookId, true);
      const updated = await this.endpoints.update(who.organizationId, before.project_id, before.id, {
        url,
        description: dto.description,
        events: dto.events,
        enabled: dto.enabled,
      });
      if (!updated) throw new NotFoundError('Webhook');
      await this.bus.publish('webhook.update', {
        actor: who,
        resourceType: 'webhook',
        resourceId: updated.id,
        before: this.summary(before),
        after: this.summary(updated),
      });
      return { updated, version: await this.endpoints.bumpSubscriptionVersion(who.organizationId) };
    });
    await this.subscriptions.propagate(who.organizationId, row.version);
    return toWebhookResponse(row.updated);
  }

  async delete(who: Principal, projectId: string, webhookId: string): Promise<void> {
    const version = await this.unitOfWork.run(async () => {
      const before = await this.visible(who, projectId, webhookId, true);
      if (!(await this.endpoints.delete(who.organizationId, before.project_id, before.id))) throw new NotFoundError('Webhook');
      await this.bus.publish('webhook.delete', {
        actor: who,
        resourceType: 'webhook',
        resourceId: before.id,
        before: this.summary(before),
      });
      return this.endpoints.bumpSubscriptionVersion(who.organizationId);
    });
    await this.subscriptions.propagate(who.organizationId, version);
  }

  /** A new secret, shown once; the previous one keeps signing beside it for the overlap. */
  async rotateSecret(
    who: Principal,
    projectId: string,
    webhookId: string,
    dto: RotateWebhookSecretDto,
  ): Promise<WebhookWithSecretResponseDto> {
    const overlap = dto.overlap_seconds ?? this.config.webhooks.secretOverlapSeconds;
    const secret = generateWebhookSecret();
    const row = await this.unitOfWork.run(async () => {
      const before = await this.visible(who, projectId, webhookId, true);
      const rotated = await this.endpoints.rotate(
        who.organizationId,
        before.project_id,
        before.id,
        this.secrets.seal(before.id, secret),
        overlap,
      );
      if (!rotated) throw new NotFoundError('Webhook');
      await this.bus.publish('webhook.rotate_secret', {
        actor: who,
        resourceType: 'webhook',
        resourceId: rotated.id,
        before: { secret_sha256: this.digestOf(before) },
        after: { secret_sha256: digest(secret), overlap_seconds: overlap },
      });
      return rotated;
    });
    return { ...toWebhookResponse(row), secret };
  }

  async listDeliveries(
    who: Principal,
    projectId: string,
    webhookId: string,
    query: ListWebhookDeliveriesQueryDto,
    request: PageRequest,
  ): Promise<Page<WebhookDeliveryResponseDto>> {
    const endpoint = await this.visible(who, projectId, webhookId);
    return this.deliveries.page(endpoint.id, query, request, toDeliveryResponse);
  }

  /** Sends the delivery again now, with the same `webhook-id` (the receiver may already have it). */
  async redeliver(who: Principal, projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryResponseDto> {
    const row = await this.unitOfWork.run(async () => {
      const endpoint = await this.visible(who, projectId, webhookId);
      const delivery = await this.deliveries.redeliver(endpoint.id, deliveryId.toLowerCase());
      if (!delivery) throw new NotFoundError('Delivery');
      await this.bus.publish('webhook.redeliver', {
        actor: who,
        resourceType: 'webhook_delivery',
        resourceId: delivery.id,
        after: { webhook_id: endpoint.id, event_type: delivery.event_type, attempts: delivery.attempts },
      });
      return delivery;
    });
    wakeDelivery(this.jobs, row.id, row.attempts, { tag: `redeliver-${Date.now()}` });
    return toDeliveryResponse(row);
  }

  /** What the audit log keeps of an endpoint: never the secret, only a digest of it. */
  private summary(row: WebhookEndpointRow): object {
    return {
      project_id: row.project_id,
      url: row.url,
      events: row.events,
      description: row.description,
      enabled: row.enabled,
      secret_sha256: this.digestOf(row),
    };
  }

  /** The digest of the endpoint's current secret, or null when no configured key opens it (the change goes ahead). */
  private digestOf(row: WebhookEndpointRow): string | null {
    try {
      return digest(this.secrets.current(row.id, row));
    } catch (error) {
      if (error instanceof WebhookSecretUnreadableError) return null;
      throw error;
    }
  }

  /** 409 `webhook_limit_reached` when the project or the organization has as many endpoints as it may. */
  private async withinLimits(organizationId: string, projectId: string): Promise<void> {
    const { maxEndpointsPerProject, maxEndpointsPerOrganization } = this.config.webhooks;
    const count = await this.endpoints.countForCreation(organizationId, projectId);
    if (count.project >= maxEndpointsPerProject) {
      throw new ConflictError(WEBHOOK_LIMIT_REACHED, `A project may have at most ${maxEndpointsPerProject} webhook endpoints`);
    }
    if (count.organization >= maxEndpointsPerOrganization) {
      throw new ConflictError(WEBHOOK_LIMIT_REACHED, `An organization may have at most ${maxEndpointsPerOrganization} webhook endpoints`);
    }
  }

  /** The organization's endpoint of the project (locked for the transaction with `lock`), or 404 — never 403. */
  private async visible(who: Principal, projectId: string, webhookId: string, lock = false): Promise<WebhookEndpointRow> {
    const endpoint = await this.endpoints.find(who.organizationId, projectId.toLowerCase(), webhookId.toLowerCase(), lock);
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }
}

/** The URL as given, or 422 on `url` when the outbound policy refuses it (scheme, credentials, address). */
function safeUrl(url: string): string {
  const problem = checkOutboundUrl(url);
  if (problem) throw ValidationError.field('url', problem);
  return url;
}

/** The first 16 hex digits of the secret's SHA-256: tells secrets apart in the audit log without revealing them. */
const digest = (secret: string): string => hashSecret(secret).slice(0, 16);

export const toWebhookResponse = (row: WebhookEndpointRow): WebhookResponseDto => ({
  id: row.id,
  project_id: row.project_id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  consecutive_failures: row.consecutive_failures,
  previous_secret_expires_at:
    row.previous_secret_expires_at && row.previous_secret_expires_at > new Date() ? row.previous_secret_expires_at.toISOString() : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toDeliveryResponse = (row: WebhookDeliveryRow): WebhookDeliveryResponseDto => ({
  id: row.id,
  webhook_id: webhookMessageId(row.id),
  event_type: row.event_type,
  thread_id: row.thread_id,
  sequence: row.sequence === null ? null : Number(row.sequence),
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  last_latency_ms: row.last_latency_ms,
  next_attempt_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  delivered_at: row.delivered_at?.toISOString() ?? null,
  attempt_log: row.attempt_log,
  payload: JSON.parse(row.body) as Record<string, unknown>,
  created_at: row.created_at.toISOString(),
});
