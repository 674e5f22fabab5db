import { Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookJobs } from './webhook-jobs.js';
import { WebhookOutbox } from './webhook-outbox.service.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';

/**
 * The webhooks outbox, which the modules whose changes are reported (conversations, versions, channels) import: it
 * depends on infrastructure only, so they can. Management (WebhooksModule) and delivery (WebhooksWorkerModule) build
 * on the same providers.
 */
@Module({
  providers: [WebhookEndpointsRepository, WebhookDeliveriesRepository, WebhookSubscriptions, WebhookJobs, WebhookOutbox],
  exports: [WebhookOutbox, WebhookEndpointsRepository, WebhookDeliveriesRepository, WebhookSubscriptions, WebhookJobs],
})
export class WebhookOutboxModule {}
