import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';
import { ToolSigningController } from './tool-signing.controller.js';

@Module({
  imports: [AuthModule, IdempotencyModule, AgentRecordsModule, ProjectsModule, VersionsModule],
  controllers: [AgentsController, ToolSigningController],
  providers: [AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
