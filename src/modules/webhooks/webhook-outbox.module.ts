import { Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookOutbox } from './webhook-outbox.service.js';
import { WebhookSecretsModule } from './webhook-secrets.module.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';

/**
 * The webhooks outbox, which the modules whose changes are reported (conversations, versions, channels) import: it
 * depends on infrastructure only, so they can. Management (WebhooksModule) and delivery (WebhooksWorkerModule) build
 * on the same providers.
 */
@Module({
  imports: [WebhookSecretsModule],
  providers: [WebhookDeliveriesRepository, WebhookSubscriptions, WebhookOutbox],
  exports: [WebhookOutbox, WebhookSecretsModule, WebhookDeliveriesRepository, WebhookSubscriptions],
})
export class WebhookOutboxModule {}
