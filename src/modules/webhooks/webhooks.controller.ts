import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { ProjectIdParams } from '../projects/dto/project.dto.js';
import {
  CreateWebhookDto,
  ListWebhookDeliveriesQueryDto,
  ListWebhooksQueryDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
  WebhookDeliveryParams,
  WebhookDeliveryResponseDto,
  WebhookParams,
  WebhookResponseDto,
  WebhookWithSecretResponseDto,
} from './dto/webhook.dto.js';
import { WEBHOOK_LIMIT_REACHED } from './webhooks.constants.js';
import { WebhooksService } from './webhooks.service.js';

const WEBHOOK_NOT_FOUND = { status: 404, code: 'not_found', message: 'Webhook not found' };
const URL_REFUSED = {
  status: 422,
  code: 'validation_error',
  message: 'url resolves to a link-local address, which outbound calls may not reach',
  details: [{ field: 'url', message: 'url resolves to a link-local address, which outbound calls may not reach' }],
};

const LIMIT_REACHED = { status: 409, code: WEBHOOK_LIMIT_REACHED, message: 'A project may have at most 20 webhook endpoints' };

/** Outbound webhooks of a project (docs/webhooks.md). */
@ManagementController('Webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('projects/:projectId/webhooks')
  @ApiOperation({
    summary: 'Subscribe an endpoint to events',
    description:
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The signing ' +
      'secret is in this answer only. Loopback, private, link-local and metadata addresses are refused. A project and an ' +
      'organization may have a bounded number of endpoints (409 `webhook_limit_reached` beyond).',
  })
  @ApiExampleBody(CreateWebhookDto, {
    turns: {
      summary: 'Completed turns',
      value: { url: 'https://hooks.example.com/agent-service', events: ['turn.completed'], description: 'CRM sync' },
    },
    events: {
      summary: 'Events webhook outcomes',
      value: { url: 'https://hooks.example.com/outcomes', events: ['event.completed', 'event.failed'] },
    },
  })
  @ApiCreatedResponse({ type: WebhookWithSecretResponseDto })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Project not found' }, LIMIT_REACHED, 413, 415, URL_REFUSED)
  create(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectIdParams,
    @Body() dto: CreateWebhookDto,
  ): Promise<WebhookWithSecretResponseDto> {
    return this.webhooks.create(who, projectId, dto);
  }

  @Get('projects/:projectId/webhooks')
  @ApiOperation({ summary: "List the project's webhook endpoints", description: 'Newest first by default. Secrets are never listed.' })
  @ApiPageResponse(WebhookResponseDto)
  @ApiErrors({ status: 404, code: 'not_found', message: 'Project not found' }, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectIdParams,
    @Query() query: ListWebhooksQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<WebhookResponseDto>> {
    return this.webhooks.list(who, projectId, query, page);
  }

  @Get('projects/:projectId/webhooks/:webhookId')
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'Its settings and state; the secret is never shown again.' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiErrors(WEBHOOK_NOT_FOUND, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { projectId, webhookId }: WebhookParams): Promise<WebhookResponseDto> {
    return this.webhooks.get(who, projectId, webhookId);
  }

  @Patch('projects/:projectId/webhooks/:webhookId')
  @ApiOperation({
    summary: 'Change a webhook endpoint',
    description: 'Any of url, events, description, enabled. `enabled: true` re-enables a disabled endpoint.',
  })
  @ApiExampleBody(UpdateWebhookDto, {
    events: { summary: 'Subscribe to more events', value: { events: ['turn.completed', 'event.failed'] } },
    enable: { summary: 'Re-enable', value: { enabled: true } },
  })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiErrors(WEBHOOK_NOT_FOUND, 413, 415, URL_REFUSED)
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId, webhookId }: WebhookParams,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookResponseDto> {
    return this.webhooks.update(who, projectId, webhookId, dto);
  }

  @Delete('projects/:projectId/webhooks/:webhookId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Its pending deliveries are dropped with it.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(WEBHOOK_NOT_FOUND, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { projectId, webhookId }: WebhookParams): Promise<void> {
    return this.webhooks.delete(who, projectId, webhookId);
  }

  @Post('projects/:projectId/webhooks/:webhookId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Returns the new secret (shown only here). The previous secret keeps signing beside it for `overlap_seconds` ' +
      '(default WEBHOOKS_SECRET_OVERLAP_SECONDS): `webhook-signature` then carries both signatures.',
  })
  @ApiExampleBody(RotateWebhookSecretDto, {
    hour: { summary: 'Keep the old secret for an hour', value: { overlap_seconds: 3600 } },
    default: { summary: 'The configured overlap', value: {} },
  })
  @ApiOkResponse({ type: WebhookWithSecretResponseDto })
  @ApiErrors(WEBHOOK_NOT_FOUND, 413, 415, 422)
  rotateSecret(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId, webhookId }: WebhookParams,
    @Body() dto: RotateWebhookSecretDto,
  ): Promise<WebhookWithSecretResponseDto> {
    return this.webhooks.rotateSecret(who, projectId, webhookId, dto);
  }

  @Get('projects/:projectId/webhooks/:webhookId/deliveries')
  @ApiOperation({
    summary: "A webhook endpoint's delivery log",
    description: 'Newest first: each message with its attempts, status codes, latencies and the next retry.',
  })
  @ApiPageResponse(WebhookDeliveryResponseDto)
  @ApiErrors(WEBHOOK_NOT_FOUND, 422)
  listDeliveries(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId, webhookId }: WebhookParams,
    @Query() query: ListWebhookDeliveriesQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<WebhookDeliveryResponseDto>> {
    return this.webhooks.listDeliveries(who, projectId, webhookId, query, page);
  }

  @Post('projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a delivery again',
    description: 'Queues an attempt now, with the same `webhook-id` (receivers deduplicate on it), whatever the delivery’s state.',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponseDto })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Delivery not found' }, 422)
  redeliver(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId, webhookId, deliveryId }: WebhookDeliveryParams,
  ): Promise<WebhookDeliveryResponseDto> {
    return this.webhooks.redeliver(who, projectId, webhookId, deliveryId);
  }
}
