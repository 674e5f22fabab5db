import { Module } from '@nestjs/common';
import { WebhookDeliveryService } from './webhook-delivery.service.js';
import { WebhookOutboxModule } from './webhook-outbox.module.js';
import { WebhooksProcessor } from './webhooks.processor.js';

/** Sends webhook deliveries: imported where queue processors run (WORKERS=on, the default, and `npm run worker`). */
@Module({ imports: [WebhookOutboxModule], providers: [WebhookDeliveryService, WebhooksProcessor] })
export class WebhooksWorkerModule {}
