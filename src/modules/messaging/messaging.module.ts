import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { LiveAgentsService } from './live-agents.service.js';
import { MessagingController } from './messaging.controller.js';
import { MessagingService } from './messaging.service.js';
import { TurnsRepository } from './turns.repository.js';

@Module({
  imports: [RuntimeModule],
  controllers: [MessagingController],
  providers: [MessagingService, LiveAgentsService, TurnsRepository],
  exports: [MessagingService, LiveAgentsService],
})
export class MessagingModule {}
