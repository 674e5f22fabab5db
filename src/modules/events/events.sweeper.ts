import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { EventsService } from './events.service.js';

/**
 * Every EVENTS_SWEEP_INTERVAL_MS, enqueues again the events a crash or a lost Redis left behind
 * (`EventsService.sweep`). Runs where the processors run (EventsWorkerModule).
 */
@Injectable()
export class EventsSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly events: EventsService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.events.sweepIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One sweep at a time; returns how many events were enqueued again. */
  sweep(): Promise<number> {
    this.running ??= this.events.sweep().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
