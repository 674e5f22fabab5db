import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ChannelInboundService } from './channel-inbound.service.js';
import { ChannelMessagesRepository } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import { ChannelThreadsController } from './channel-threads.controller.js';
import { ChannelThreadsService } from './channel-threads.service.js';
import { ChannelWebhooksController } from './channel-webhooks.controller.js';
import { CHANNELS_OUTBOUND_QUEUE, REPLY_BACKOFF, replyPollDelay } from './channels.constants.js';
import { CHANNEL_PROVIDER } from './providers/channel-provider.js';
import { TwilioProvider } from './providers/twilio.provider.js';
import { SendersController } from './senders.controller.js';
import { SendersRepository } from './senders.repository.js';
import { SendersService } from './senders.service.js';

/**
 * WhatsApp and SMS conversations through a provider adapter (docs/channels.md). Inbound messages become
 * events of the events module (resolved from the application at start-up; see ChannelInboundService).
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: CHANNELS_OUTBOUND_QUEUE, settings: { backoffStrategies: { [REPLY_BACKOFF]: replyPollDelay } } }),
    ConversationsModule,
    MessagingModule,
  ],
  controllers: [SendersController, ChannelThreadsController, ChannelWebhooksController],
  providers: [
    { provide: CHANNEL_PROVIDER, inject: [AppConfig], useFactory: (config: AppConfig) => new TwilioProvider(config) },
    SendersService,
    SendersRepository,
    ChannelMessagesRepository,
    ChannelOutboundService,
    ChannelThreadsService,
    ChannelInboundService,
  ],
})
export class ChannelsModule {}
