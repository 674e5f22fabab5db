import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { BundlesModule } from '../bundles/bundles.module.js';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AgentSecretsStoreModule } from '../agent-secrets/agent-secrets-store.module.js';
import { McpModule } from '../runtime/mcp/mcp.module.js';
import { TrafficController } from './traffic.controller.js';
import { TrafficRepository } from './traffic.repository.js';
import { TrafficService } from './traffic.service.js';
import { VersionsController } from './versions.controller.js';
import { VersionsRepository } from './versions.repository.js';
import { VersionsService } from './versions.service.js';

@Module({
  imports: [AuthModule, IdempotencyModule, AgentRecordsModule, BundlesModule, AgentSecretsStoreModule, McpModule],
  controllers: [VersionsController, TrafficController],
  providers: [VersionsService, VersionsRepository, TrafficService, TrafficRepository],
  exports: [VersionsService, TrafficService],
})
export class VersionsModule {}
