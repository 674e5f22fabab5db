import { BullModule } from '@nestjs/bull';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { QueueName } from '../../queue/queue.constants.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { EventJobs } from './event-jobs.js';
import { EventsIngestService } from './events-ingest.service.js';
import { EventsController } from './events.controller.js';
import { EventsProcessor } from './events.processor.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';
import { EventsSweeper } from './events.sweeper.js';

/**
 * Events webhook: ingestion and status on every API process; the Bull processor and the sweeper only where
 * queue processors run (WORKERS=on, the default, and `npm run worker` processes).
 */
@Module({})
export class EventsModule {
  // Nest tells dynamic modules apart by object identity: one object per configuration, so that every importer
  // (the app module, channels) shares one instance (one controller, one processor, one sweeper).
  private static readonly registered = new WeakMap<AppConfig, DynamicModule>();

  static register(config: AppConfig): DynamicModule {
    let module = EventsModule.registered.get(config);
    if (!module) {
      const workers: Provider[] = config.workersEnabled ? [EventsProcessor, EventsSweeper] : [];
      module = {
        module: EventsModule,
        imports: [BullModule.registerQueue({ name: QueueName.Events }), ConversationsModule, MessagingModule, VersionsModule],
        controllers: [EventsController],
        providers: [EventsRepository, EventJobs, EventsIngestService, EventsService, ...workers],
        exports: [EventsService, EventsIngestService],
      };
      EventsModule.registered.set(config, module);
    }
    return module;
  }
}
