import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { KeysController } from './keys.controller.js';
import { KeysService } from './keys.service.js';

@Module({
  imports: [AgentsModule],
  controllers: [KeysController],
  providers: [KeysService],
  exports: [KeysService],
})
export class KeysModule {}
