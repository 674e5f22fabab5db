import { Module } from '@nestjs/common';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';

/** The conversation store (threads, interactions, usage_daily): only its service leaves the module. */
@Module({
  imports: [WebhookOutboxModule],
  providers: [ConversationsService, ConversationsRepository],
  exports: [ConversationsService],
})
export class ConversationsModule {}
