import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '../agents/agents.module.js';
import { AgentApiKeyEntity } from '../auth/entities/agent-api-key.entity.js';
import { PublishableKeyEntity } from '../auth/entities/publishable-key.entity.js';
import { KeysController } from './keys.controller.js';
import { KeysService } from './keys.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([PublishableKeyEntity, AgentApiKeyEntity]), AgentsModule],
  controllers: [KeysController],
  providers: [KeysService],
  exports: [KeysService],
})
export class KeysModule {}
