import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventBus } from './event-bus.js';

/** The in-process change-event bus: every module may publish and subscribe without importing anything. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [EventBus], exports: [EventBus] })
export class BusModule {}
