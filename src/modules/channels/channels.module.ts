import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ChannelMessagesRepository } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import { ChannelThreadsController } from './channel-threads.controller.js';
import { ChannelThreadsService } from './channel-threads.service.js';
import { CHANNELS_OUTBOUND_QUEUE } from './channels.constants.js';
import { SenderEntity } from './entities/sender.entity.js';
import { CHANNEL_PROVIDER } from './providers/channel-provider.js';
import { TwilioProvider } from './providers/twilio.provider.js';
import { SendersController } from './senders.controller.js';
import { SendersService } from './senders.service.js';

/** WhatsApp and SMS conversations through a provider adapter (docs/channels.md). */
@Module({
  imports: [TypeOrmModule.forFeature([SenderEntity]), BullModule.registerQueue({ name: CHANNELS_OUTBOUND_QUEUE }), MessagingModule],
  controllers: [SendersController, ChannelThreadsController],
  providers: [
    { provide: CHANNEL_PROVIDER, inject: [AppConfig], useFactory: (config: AppConfig) => new TwilioProvider(config) },
    SendersService,
    ChannelMessagesRepository,
    ChannelOutboundService,
    ChannelThreadsService,
  ],
})
export class ChannelsModule {}
