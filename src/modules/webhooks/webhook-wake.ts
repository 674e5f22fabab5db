import { JobName } from '../../queue/job-map.js';
import type { JobQueue } from '../../queue/job-queue.js';

/**
 * Wakes a delivery slot (after `delayMs`) for attempt number `attempt + 1` at a delivery, without making the caller
 * wait for Redis: the delivery row is committed first, and the sweep enqueues due rows nobody took. The slot sends
 * whichever due deliveries are fairest (WebhookDeliveryService.work), so the job id only deduplicates wake-ups while
 * one for that attempt is still in Redis; `tag` makes a deliberate second one (a redelivery, a sweep). A wake-up that
 * finds nothing to take costs one claim statement.
 */
export function wakeDelivery(jobs: JobQueue, deliveryId: string, attempt: number, options: { delayMs?: number; tag?: string } = {}): void {
  const jobId = `${deliveryId}:${attempt}${options.tag ? `:${options.tag}` : ''}`;
  void jobs.tryEnqueue(JobName.DeliverWebhook, { deliveryId, attempt }, { jobId, delayMs: options.delayMs });
}
