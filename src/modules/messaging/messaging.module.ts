import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { LiveAgentsService } from './live-agents.service.js';
import { MessagingController } from './messaging.controller.js';
import { MessagingService } from './messaging.service.js';
import { TurnPipeline } from './turn-pipeline.js';

@Module({
  imports: [MetricsModule, IdempotencyModule, AgentRecordsModule, ConversationsModule, RuntimeModule, VersionsModule],
  controllers: [MessagingController],
  providers: [MessagingService, TurnPipeline, LiveAgentsService],
  exports: [MessagingService, TurnPipeline, LiveAgentsService],
})
export class MessagingModule {}
