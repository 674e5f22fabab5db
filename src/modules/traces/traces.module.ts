import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ThreadsModule } from '../threads/threads.module.js';
import { TracesController } from './traces.controller.js';
import { TracesService } from './traces.service.js';

@Module({
  imports: [AuthModule, ConversationsModule, ThreadsModule],
  controllers: [TracesController],
  providers: [TracesService],
})
export class TracesModule {}
