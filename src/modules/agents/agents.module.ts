import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { AgentRecordsModule } from './agent-records.module.js';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';

@Module({
  imports: [AgentRecordsModule, ProjectsModule, VersionsModule],
  controllers: [AgentsController],
  providers: [AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
