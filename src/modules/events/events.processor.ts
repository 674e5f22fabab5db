import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RedisService } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { EventsWakeup } from './events-wakeup.js';
import { EventsService } from './events.service.js';
import type { ClaimedEvent } from './events.repository.js';

/** How often the pause switch (a Redis key) is read at most. */
const PAUSE_CHECK_MS = 1000;

/**
 * The worker's loop: claims due conversation heads from PostgreSQL in batches, as many as it has free slots of
 * EVENTS_CONCURRENCY, runs each, and claims again as slots free up. Idle, it waits for a wake-up (accepts publish one
 * on Redis) or EVENTS_POLL_MS, whichever comes first. While events run, their leases are renewed every third of
 * EVENTS_LEASE_MS in one statement (a periodic task, kept up until the modules have shut down), so a lease expires
 * only when this process has died or stalled; another worker's claim then takes the event over. No queue stands
 * between an accepted event and its worker: a lost wake-up costs one poll interval, never an event.
 */
@Injectable()
export class EventsProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsProcessor.name);
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  /** A wake-up arrived while the loop was busy: the next wait returns at once. */
  private woken = false;
  private resume: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private closeWakeups: (() => Promise<void>) | undefined;
  private pausedAt = 0;
  private paused = false;

  constructor(
    private readonly events: EventsService,
    private readonly wakeups: EventsWakeup,
    private readonly redis: RedisService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.closeWakeups = await this.wakeups.listen(() => this.wake());
    this.loop = this.claimLoop();
  }

  /** Stops claiming, lets the running events finish (their leases still renewed), then stops listening. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.all(this.running.values());
    await this.closeWakeups?.();
  }

  private async claimLoop(): Promise<void> {
    const { concurrency, pollMs } = this.config.events;
    while (!this.stopping) {
      const free = concurrency - this.running.size;
      let drained = true;
      if (free > 0 && !(await this.isPaused())) {
        let claimed: ClaimedEvent[] = [];
        try {
          claimed = await this.events.claimDue(free);
        } catch (error) {
          this.logger.warn({ err: error }, 'could not claim events; trying again after the poll interval');
        }
        for (const event of claimed) this.start(event);
        // All that was asked for came back: more may be due, so claim again as soon as a slot frees up.
        drained = claimed.length < free;
      }
      await this.wait(drained ? pollMs : undefined);
    }
  }

  private start(event: ClaimedEvent): void {
    const done = this.events
      .run(event)
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.error({ err: error, eventId: event.id }, 'event attempt failed unexpectedly; its lease will expire'),
      )
      .finally(() => {
        this.running.delete(event.id);
        this.wake();
      });
    this.running.set(event.id, done);
  }

  /** Until a wake-up (a slot freed, an accept's message, shutdown) or `timeoutMs`; at once if one came meanwhile. */
  private wait(timeoutMs: number | undefined): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.wake(), timeoutMs).unref();
      this.resume = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private wake(): void {
    const resume = this.resume;
    this.resume = undefined;
    if (resume) resume();
    else this.woken = true;
  }

  @JobHandler(JobName.RenewEventLeases)
  async renew(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    try {
      const held = new Set(await this.events.renewLeases(ids));
      const lost = ids.filter((id) => !held.has(id) && this.running.has(id));
      if (lost.length > 0) this.logger.warn({ events: lost }, 'leases lost (expired and taken over, or finished meanwhile)');
    } catch (error) {
      this.logger.warn({ err: error }, 'could not renew event leases');
    }
  }

  /**
   * Processing is paused while the Redis key `<prefix>:events:paused` exists (maintenance, benchmarks): read at most
   * once a second; accepts go on. Without Redis, not paused.
   */
  private async isPaused(): Promise<boolean> {
    const now = Date.now();
    if (now - this.pausedAt < PAUSE_CHECK_MS) return this.paused;
    this.pausedAt = now;
    try {
      this.paused = this.redis.ready && (await this.redis.client.exists(this.redis.key('events', 'paused'))) === 1;
    } catch {
      this.paused = false;
    }
    return this.paused;
  }
}
