import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { WebhookOutboxModule } from './webhook-outbox.module.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhookAuditListener } from './webhook-audit.listener.js';

/** Outbound webhooks, management surface: endpoints, secrets and the delivery log (docs/webhooks.md). */
@Module({
  imports: [WebhookOutboxModule, ProjectsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookAuditListener],
  exports: [WebhooksService],
})
export class WebhooksModule {}
