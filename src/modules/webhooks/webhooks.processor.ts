import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { AppConfig } from '../../config/app-config.js';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';

type DeliverJob = Job<JobPayloads[JobName.DeliverWebhook]>;

/**
 * Thin: each job is one `WebhookDeliveryService.attempt`. Registered at module init so that the concurrency comes
 * from the validated configuration (WEBHOOKS_CONCURRENCY).
 */
@Injectable()
export class WebhooksProcessor implements OnModuleInit {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue<JobPayloads[JobName.DeliverWebhook]>,
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue
      .process(JobName.DeliverWebhook, this.config.webhooks.concurrency, (job: DeliverJob) => this.handle(job))
      .catch((error: unknown) => this.logger.error({ err: error }, 'webhooks processor stopped'));
  }

  handle(job: DeliverJob): Promise<string> {
    return this.delivery.attempt(job.data.deliveryId, job.data.attempt);
  }
}
