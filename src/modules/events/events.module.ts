import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { EventsIngestService } from './events-ingest.service.js';
import { EventsWakeup } from './events-wakeup.js';
import { EventsController } from './events.controller.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';

/**
 * Events webhook: ingestion and status on every process. What runs the events (the claim loop, EventsProcessor)
 * is in EventsWorkerModule, which the application imports only where queue processors run. Channels import this
 * module to hand their inbound messages over as events.
 */
@Module({
  imports: [ConversationsModule, MessagingModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsWakeup, EventsIngestService, EventsService],
  exports: [EventsService, EventsIngestService, EventsWakeup],
})
export class EventsModule {}
