import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { EventJobs } from './event-jobs.js';
import { EventsRepository } from './events.repository.js';

/** Events enqueued again per sweep at most (the rest on the next sweep). */
const SWEEP_LIMIT = 5000;

/**
 * Every EVENTS_SWEEP_INTERVAL_MS, one instance (a PostgreSQL advisory lock) enqueues again the events a crash or
 * a lost Redis left behind: due conversation heads not picked up within EVENTS_STALE_MS, and events whose
 * worker's lease expired. Runs where the processors run (WORKERS=on).
 */
@Injectable()
export class EventsSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly repository: EventsRepository,
    private readonly jobs: EventJobs,
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

  /** One sweep; returns how many events were enqueued again (0 when another instance holds the lock). */
  sweep(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<number> {
    try {
      const ids = await this.repository.sweep(this.config.events.staleMs, SWEEP_LIMIT);
      if (!ids || ids.length === 0) return 0;
      const stamp = Date.now().toString(36);
      for (const id of ids) this.jobs.enqueue(id, { jobId: `${id}:sweep:${stamp}` });
      await this.jobs.flush();
      this.logger.log({ events: ids.length }, 'swept pending events back onto the queue');
      return ids.length;
    } catch (error) {
      this.logger.warn({ err: error }, 'events sweep failed');
      return 0;
    }
  }
}
