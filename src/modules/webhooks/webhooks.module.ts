import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { WebhookOutboxModule } from './webhook-outbox.module.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** Outbound webhooks, management surface: endpoints, secrets and the delivery log (docs/webhooks.md). */
@Module({
  imports: [AuthModule, WebhookOutboxModule, ProjectsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
