import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';

/**
 * The webhooks' jobs, where workers run. Each delivery job wakes one delivery slot (`WebhookDeliveryService.work`),
 * which sends whichever due deliveries are fairest to send, not necessarily the one the job names (the job id only
 * keeps one wake-up per due attempt). The sweep enqueues again the deliveries due for longer than WEBHOOKS_STALE_MS
 * that no worker holds: their job was lost (a crash between the commit and the enqueue, Redis down).
 */
@Injectable()
export class WebhooksProcessor implements OnModuleDestroy {
  constructor(private readonly delivery: WebhookDeliveryService) {}

  @JobHandler(JobName.DeliverWebhook)
  deliver(): Promise<number> {
    return this.delivery.work();
  }

  /** Returns how many deliveries were enqueued again. */
  @JobHandler(JobName.SweepWebhooks)
  sweep(): Promise<number> {
    return this.delivery.sweep();
  }

  onModuleDestroy(): void {
    this.delivery.stop();
  }
}
