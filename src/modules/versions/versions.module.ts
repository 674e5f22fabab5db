import { Module } from '@nestjs/common';
import { BundlesModule } from '../bundles/bundles.module.js';
import { AgentRecordsModule } from '../agents/agent-records.module.js';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module.js';
import { VersionsController } from './versions.controller.js';
import { VersionsRepository } from './versions.repository.js';
import { VersionsService } from './versions.service.js';

@Module({
  imports: [AgentRecordsModule, BundlesModule, WebhookOutboxModule],
  controllers: [VersionsController],
  providers: [VersionsService, VersionsRepository],
  exports: [VersionsService],
})
export class VersionsModule {}
