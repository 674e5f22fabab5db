import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
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
import { WebhookJobs } from './webhook-jobs.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { webhookMessageId } from './webhooks.constants.js';

/** A project's webhook endpoints and their delivery log (management surface). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly jobs: WebhookJobs,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    private readonly config: AppConfig,
  ) {}

  async create(who: Principal, projectId: string, dto: CreateWebhookDto): Promise<WebhookWithSecretResponseDto> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    const url = safeUrl(dto.url);
    const row = await this.unitOfWork.run(() =>
      this.endpoints.insert({
        id: newId(),
        organizationId: who.organizationId,
        projectId: project.id,
        url,
        description: dto.description ?? '',
        events: dto.events,
        enabled: dto.enabled ?? true,
        secret: generateWebhookSecret(),
      }),
    );
    await this.changed(who.organizationId);
    return { ...toWebhookResponse(row), secret: row.secret };
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
    const row = await this.unitOfWork.run(() =>
      this.endpoints.update(who.organizationId, projectId.toLowerCase(), webhookId.toLowerCase(), {
        url,
        description: dto.description,
        events: dto.events,
        enabled: dto.enabled,
      }),
    );
    if (!row) throw new NotFoundError('Webhook');
    await this.changed(who.organizationId);
    return toWebhookResponse(row);
  }

  async delete(who: Principal, projectId: string, webhookId: string): Promise<void> {
    const deleted = await this.unitOfWork.run(() => this.endpoints.delete(who.organizationId, projectId.toLowerCase(), webhookId.toLowerCase()));
    if (!deleted) throw new NotFoundError('Webhook');
    await this.changed(who.organizationId);
  }

  /** A new secret, shown once; the previous one keeps signing beside it for the overlap. */
  async rotateSecret(who: Principal, projectId: string, webhookId: string, dto: RotateWebhookSecretDto): Promise<WebhookWithSecretResponseDto> {
    const overlap = dto.overlap_seconds ?? this.config.webhooks.secretOverlapSeconds;
    const row = await this.unitOfWork.run(() =>
      this.endpoints.rotate(who.organizationId, projectId.toLowerCase(), webhookId.toLowerCase(), generateWebhookSecret(), overlap),
    );
    if (!row) throw new NotFoundError('Webhook');
    return { ...toWebhookResponse(row), secret: row.secret };
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
    const endpoint = await this.visible(who, projectId, webhookId);
    const row = await this.deliveries.redeliver(endpoint.id, deliveryId.toLowerCase());
    if (!row) throw new NotFoundError('Delivery');
    this.jobs.enqueue(row.id, row.attempts, 0, `redeliver-${Date.now()}`);
    return toDeliveryResponse(row);
  }

  private async visible(who: Principal, projectId: string, webhookId: string): Promise<WebhookEndpointRow> {
    const endpoint = await this.endpoints.find(who.organizationId, projectId.toLowerCase(), webhookId.toLowerCase());
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }

  /** This process's subscriptions reload before the answer; the others' on the broadcast. */
  private async changed(organizationId: string): Promise<void> {
    await this.subscriptions.reload({ organizationId });
    this.bus.emit('webhook.endpoints_changed', { organizationId });
  }
}

/** The URL as given, or 422 on `url` when the outbound policy refuses it (scheme, credentials, address). */
function safeUrl(url: string): string {
  const problem = checkOutboundUrl(url);
  if (problem) throw ValidationError.field('url', problem);
  return url;
}

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
