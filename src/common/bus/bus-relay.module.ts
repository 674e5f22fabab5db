import { Module } from '@nestjs/common';
import { BusRelay } from './bus-relay.js';

/** Cross-process forwarding of broadcast events (Redis): imported by the application, not by the CLI. */
@Module({ providers: [BusRelay] })
export class BusRelayModule {}
