import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AppConfig } from '../../config/app-config.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { EventsModule } from '../events/events.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ChannelHandoffRelay } from './channel-handoff.relay.js';
import { ChannelInboundService } from './channel-inbound.service.js';
import { ChannelMessagesRepository } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import { ChannelThreadsController } from './channel-threads.controller.js';
import { ChannelThreadsService } from './channel-threads.service.js';
import { ChannelWebhooksController } from './channel-webhooks.controller.js';
import { CHANNEL_PROVIDER } from './providers/channel-provider.js';
import { TwilioProvider } from './providers/twilio.provider.js';
import { SendersController } from './senders.controller.js';
import { SendersRepository } from './senders.repository.js';
import { SendersService } from './senders.service.js';

/**
 * WhatsApp and SMS conversations through a provider adapter (docs/channels.md). Inbound messages become events
 * of the events module; their replies follow the events' `event.completed` / `event.failed` announcements.
 * Deliveries and sweeps run in ChannelsWorkerModule.
 */
@Module({
  imports: [MetricsModule, AuthModule, ConversationsModule, MessagingModule, EventsModule],
  controllers: [SendersController, ChannelThreadsController, ChannelWebhooksController],
  providers: [
    { provide: CHANNEL_PROVIDER, inject: [AppConfig], useFactory: (config: AppConfig) => new TwilioProvider(config) },
    SendersService,
    SendersRepository,
    ChannelMessagesRepository,
    ChannelOutboundService,
    ChannelThreadsService,
    ChannelInboundService,
    ChannelHandoffRelay,
  ],
  exports: [ChannelInboundService, ChannelOutboundService],
})
export class ChannelsModule {}
