import { Global, Module } from '@nestjs/common';
import { BusRelay } from './bus-relay.js';

/**
 * Cross-process forwarding of broadcast events (Redis): imported by the application, not by the CLI. Global so that
 * the metrics can report its state (optionally: the CLI has none).
 */
@Global()
@Module({ providers: [BusRelay], exports: [BusRelay] })
export class BusRelayModule {}
