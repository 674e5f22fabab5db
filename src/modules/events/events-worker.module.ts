import { Module } from '@nestjs/common';
import { EventsModule } from './events.module.js';
import { EventsProcessor } from './events.processor.js';

/** Runs accepted events: imported where queue processors run (WORKERS=on, the default, and `npm run worker`). */
@Module({ imports: [EventsModule], providers: [EventsProcessor] })
export class EventsWorkerModule {}
