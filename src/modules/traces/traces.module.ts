import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ThreadsModule } from '../threads/threads.module.js';
import { TracesController } from './traces.controller.js';
import { TracesService } from './traces.service.js';

@Module({
  imports: [ConversationsModule, ThreadsModule],
  controllers: [TracesController],
  providers: [TracesService],
})
export class TracesModule {}
