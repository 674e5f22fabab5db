import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisService } from '../redis/redis.service.js';
import { EventBus, type BusTransport } from './event-bus.js';
import { BROADCAST_EVENTS, type BusEventName, type EventMap } from './event-map.js';

interface Envelope {
  /** The process that emitted it (it delivered the event to its own listeners already). */
  origin: string;
  name: BusEventName;
  payload: unknown;
}

/**
 * Forwards broadcast events between the processes of a deployment (API replicas, `npm run worker` processes) over
 * Redis pub/sub, on one channel under the Redis key prefix. Best effort, as the caches it serves allow: a process
 * that misses a message (Redis down, reconnecting) still drops the entry when its short TTL runs out.
 */
@Injectable()
export class BusRelay implements BusTransport, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BusRelay');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | undefined;
  /** What the relay did since start, read by the metrics at scrape time (`agent_bus_relay_*`). */
  readonly counts = { published: 0, publishFailed: 0, received: 0 };

  /** Whether the subscriber connection is subscribed now: while it is not, this process misses other processes' events. */
  get subscribed(): boolean {
    return this.subscriber?.status === 'ready';
  }

  constructor(
    private readonly bus: EventBus,
    private readonly redis: RedisService,
  ) {
    this.channel = redis.key('bus');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.bus.useTransport(this);
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.received(message);
    });
    // ioredis subscribes again by itself after a reconnect; a failure now is logged, not fatal (caches expire anyway).
    subscriber.on('error', (error) => this.logger.warn({ err: error }, 'bus relay connection error'));
    await subscriber.subscribe(this.channel).catch((error: unknown) => this.logger.warn({ err: error }, 'bus relay could not subscribe'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  publish<K extends BusEventName>(name: K, payload: EventMap[K]): void {
    const envelope: Envelope = { origin: this.origin, name, payload };
    this.redis.client.publish(this.channel, JSON.stringify(envelope)).then(
      () => (this.counts.published += 1),
      (error: unknown) => {
        this.counts.publishFailed += 1;
        this.logger.warn({ err: error, event: name }, 'could not forward a bus event to the other processes');
      },
    );
  }

  private received(message: string): void {
    let envelope: Partial<Envelope>;
    try {
      envelope = JSON.parse(message) as Partial<Envelope>;
    } catch {
      return this.logger.warn({ message }, 'unreadable bus message ignored');
    }
    if (envelope.origin === this.origin || !envelope.name || !BROADCAST_EVENTS.has(envelope.name)) return;
    this.counts.received += 1;
    void this.bus.deliver(envelope.name, envelope.payload as EventMap[typeof envelope.name]);
  }
}
