import { Global, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { EventBus } from './event-bus.js';

/** The in-process bus: every module may emit and listen without importing anything. */
@Global()
@Module({ imports: [EventEmitterModule.forRoot({ wildcard: false })], providers: [EventBus], exports: [EventBus] })
export class BusModule {}
