import { Module } from '@nestjs/common';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { FeedbackManagementController, FeedbackMessagingController } from './feedback.controller.js';
import { FeedbackRepository } from './feedback.repository.js';
import { FeedbackService } from './feedback.service.js';

/** End users' ratings of agent messages (docs/evaluations.md "Feedback"); the WebSocket session rates through FeedbackService. */
@Module({
  imports: [AuthModule, AgentRecordsModule, ConversationsModule],
  controllers: [FeedbackMessagingController, FeedbackManagementController],
  providers: [FeedbackService, FeedbackRepository],
  exports: [FeedbackService],
})
export class FeedbackModule {}
