import { Module } from '@nestjs/common';
import { AgentRecordsModule } from '../agents/agent-records.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';

@Module({
  imports: [AgentRecordsModule, VersionsModule],
  controllers: [ProjectsController],
  providers: [ProjectsService, ProjectsRepository],
  exports: [ProjectsService],
})
export class ProjectsModule {}
