import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { EventsBacklogReporter } from './events-backlog.reporter.js';
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
  imports: [AuthModule, MetricsModule, IdempotencyModule, ConversationsModule, MessagingModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsWakeup, EventsIngestService, EventsService, EventsBacklogReporter],
  exports: [EventsService, EventsIngestService, EventsWakeup],
})
export class EventsModule {}
