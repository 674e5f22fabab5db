import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { UsageController } from './usage.controller.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

@Module({
  imports: [AgentsModule, ProjectsModule],
  controllers: [UsageController],
  providers: [UsageService, UsageRepository],
})
export class UsageModule {}
