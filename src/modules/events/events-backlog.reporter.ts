import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service.js';
import { EventsRepository } from './events.repository.js';

/**
 * Hands the metrics the events table's own view of the backlog (`agent_events_due`,
 * `agent_events_oldest_due_age_seconds`), read at scrape time: a stall shows there whatever Bull's queues say.
 */
@Injectable()
export class EventsBacklogReporter implements OnModuleInit {
  constructor(
    private readonly events: EventsRepository,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics.useEventsBacklog(async (ageBounds, buckets) =>
      (await this.events.dueBacklog(ageBounds, buckets)).map((row) => ({
        bucket: row.bucket,
        ageBucket: row.age_bucket,
        count: row.n,
        oldestSeconds: row.oldest,
      })),
    );
  }
}
