import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { HandoffFeedRepository } from './handoff-feed.repository.js';
import { HandoffRelay } from './handoff-relay.js';
import { HandoffStreamsService } from './handoff-streams.service.js';
import { HandoffController } from './handoff.controller.js';
import { HandoffService } from './handoff.service.js';
import { InboxController, OperatorsController } from './operators.controller.js';

/**
 * Human handoff (docs/handoff.md): thread control through the conversation store, the end user's and the operators'
 * routes, the inbox, the thread and inbox event streams, and the relay of committed changes to the live surfaces.
 */
@Module({
  imports: [AuthModule, ConversationsModule, MessagingModule],
  controllers: [HandoffController, OperatorsController, InboxController],
  providers: [HandoffService, HandoffFeedRepository, HandoffStreamsService, HandoffRelay],
  exports: [HandoffService],
})
export class HandoffModule {}
