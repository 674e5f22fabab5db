import { Module } from '@nestjs/common';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';

/** The conversation store (threads, interactions, usage_daily): only its service leaves the module. */
@Module({
  providers: [ConversationsService, ConversationsRepository],
  exports: [ConversationsService],
})
export class ConversationsModule {}
