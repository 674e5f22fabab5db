import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';

/**
 * Every WEBHOOKS_SWEEP_INTERVAL_MS, enqueues again the deliveries due for longer than WEBHOOKS_STALE_MS that no
 * worker holds: their job was lost (a crash between the commit and the enqueue, Redis down). Runs with the processors.
 */
@Injectable()
export class WebhooksSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhooksSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.webhooks.sweepIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One sweep at a time; returns how many deliveries were enqueued again. */
  sweep(): Promise<number> {
    this.running ??= this.delivery
      .sweep()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'webhooks sweep failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
