import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { UsageController } from './usage.controller.js';
import { UsageService } from './usage.service.js';

@Module({
  imports: [AuthModule, AgentsModule, ConversationsModule, ProjectsModule],
  controllers: [UsageController],
  providers: [UsageService],
})
export class UsageModule {}
