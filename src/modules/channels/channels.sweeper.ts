import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ChannelInboundService } from './channel-inbound.service.js';
import { ChannelOutboundService } from './channel-outbound.service.js';

const INBOUND_SWEEP_INTERVAL_MS = 10_000;
const OUTBOUND_SWEEP_INTERVAL_MS = 30_000;

/** Picks up what a crash or an unreachable Redis left behind, on the processes that run the queue processors. */
@Injectable()
export class ChannelsSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly inbound: ChannelInboundService,
    private readonly outbound: ChannelOutboundService,
  ) {}

  onApplicationBootstrap(): void {
    this.timers.push(setInterval(() => void this.inbound.sweep(), INBOUND_SWEEP_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.outbound.sweep(), OUTBOUND_SWEEP_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }
}
