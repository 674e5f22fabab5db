import { Module } from '@nestjs/common';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AgentSecretsStoreModule } from './agent-secrets-store.module.js';
import { AgentSecretsController } from './agent-secrets.controller.js';
import { AgentSecretsService } from './agent-secrets.service.js';

/** Agent secrets' management routes (PUT, GET, DELETE …/agents/{agentId}/secrets); storage is AgentSecretsStoreModule. */
@Module({
  imports: [AuthModule, AgentRecordsModule, AgentSecretsStoreModule],
  controllers: [AgentSecretsController],
  providers: [AgentSecretsService],
})
export class AgentSecretsModule {}
