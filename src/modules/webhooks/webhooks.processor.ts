import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../../config/app-config.js';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';

/**
 * Thin: each job wakes one delivery slot (`WebhookDeliveryService.work`), which sends whichever due deliveries are
 * fairest to send, not necessarily the one the job names (the job id only keeps one wake-up per due attempt). Registered
 * at module init so that the number of slots comes from the validated configuration (WEBHOOKS_CONCURRENCY).
 */
@Injectable()
export class WebhooksProcessor implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue<JobPayloads[JobName.DeliverWebhook]>,
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue
      .process(JobName.DeliverWebhook, this.config.webhooks.concurrency, () => this.delivery.work())
      .catch((error: unknown) => this.logger.error({ err: error }, 'webhooks processor stopped'));
  }

  onModuleDestroy(): void {
    this.delivery.stop();
  }
}
