import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { JobName, QueueName, type JobPayloads } from '../../queue/queue.constants.js';

/**
 * Puts "attempt delivery X" jobs on the `webhooks` queue without making anyone wait for Redis. A job that never
 * reaches Redis loses nothing: the delivery row is committed first and the sweeper enqueues due rows nobody took.
 */
@Injectable()
export class WebhookJobs {
  private readonly logger = new Logger(WebhookJobs.name);

  constructor(@InjectQueue(QueueName.Webhooks) private readonly queue: Queue<JobPayloads[JobName.DeliverWebhook]>) {}

  /**
   * Wakes a delivery slot after `delayMs`, when attempt number `attempt + 1` at the delivery is due. The slot sends
   * whichever due deliveries are fairest (WebhookDeliveryService.work), so the job id only deduplicates wake-ups while
   * one for that attempt is still in Redis (`tag` makes a deliberate second one, as a redelivery); a wake-up that finds
   * nothing to take costs one claim statement.
   */
  enqueue(deliveryId: string, attempt: number, delayMs = 0, tag = ''): void {
    this.queue
      .add(
        JobName.DeliverWebhook,
        { deliveryId, attempt },
        {
          jobId: `${deliveryId}:${attempt}${tag ? `:${tag}` : ''}`,
          delay: delayMs > 0 ? delayMs : undefined,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        },
      )
      .catch((error: unknown) => this.logger.warn({ err: error, deliveryId }, 'could not enqueue a webhook delivery; the sweeper will'));
  }
}
