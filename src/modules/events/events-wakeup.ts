import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisService } from '../../common/redis/redis.service.js';

/**
 * Tells the worker processes that events are due, over Redis pub/sub: accepts of one event-loop tick share one
 * `PUBLISH`, sent after the 202 was decided and never awaited. Best effort by design: the events are rows in
 * PostgreSQL, and every idle worker also looks for due ones every EVENTS_POLL_MS, so a lost wake-up (Redis down,
 * a worker reconnecting) delays an event by that interval at most and loses nothing.
 */
@Injectable()
export class EventsWakeup {
  private readonly logger = new Logger(EventsWakeup.name);
  private readonly channel: string;
  private scheduled = false;

  constructor(private readonly redis: RedisService) {
    this.channel = redis.key('events', 'due');
  }

  /** Events were committed: wake the workers (one message per tick, whatever the number of events). */
  nudge(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // Not while Redis is away: the client would queue the command; the workers' polling covers the gap.
      if (!this.redis.ready) return;
      this.redis.client
        .publish(this.channel, '')
        .catch((error: unknown) => this.logger.warn({ err: error }, 'could not publish the events wake-up'));
    });
  }

  /** Calls `onDue` on every wake-up, on a connection of its own; returns how to close it. */
  async listen(onDue: () => void): Promise<() => Promise<void>> {
    const subscriber: Redis = this.redis.duplicate();
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) onDue();
    });
    // ioredis subscribes again by itself after a reconnect; meanwhile the workers poll.
    subscriber.on('error', (error) => this.logger.warn({ err: error }, 'events wake-up connection error'));
    await subscriber
      .subscribe(this.channel)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not subscribe to events wake-ups'));
    return async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    };
  }
}
