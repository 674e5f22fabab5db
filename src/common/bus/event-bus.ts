import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { BROADCAST_EVENTS, type BusEventName, type EventMap } from './event-map.js';
import { busSubscriptionsOf, type BusPhase } from './on-bus-event.decorator.js';

/** Carries broadcast events to the other processes of the deployment (BusRelay). */
export interface BusTransport {
  publish<K extends BusEventName>(name: K, payload: EventMap[K]): void;
}

export interface SubscribeOptions<K extends BusEventName> {
  /** `transaction`: in the publisher's transaction, before it commits; `afterCommit` (default): once it has committed. */
  phase?: BusPhase;
  /**
   * Whether this subscriber has work for `payload` (null: for some payload of this name), answered from memory. A
   * publisher may skip its transaction and the publication when nobody wants a change (`EventBus.wants`).
   */
  wants?: (payload: EventMap[K] | null) => boolean;
}

interface Subscriber {
  phase: BusPhase;
  wants: ((payload: unknown) => boolean) | undefined;
  handle: (payload: unknown) => unknown;
}

/**
 * The typed change-event bus. Write sites publish their changes inside their unit of work; subscribers are methods
 * decorated with `@OnBusEvent(name, { phase })` (or `on()` for code that subscribes for a while, such as tests).
 * In-transaction subscribers (the audit log, the webhook outbox) run before the publisher's transaction commits, and
 * their failure rolls the change back; after-commit subscribers (caches) run once it has committed, never when it
 * rolls back, and their failure is logged. Broadcast events (BROADCAST_EVENTS) also go to the transport after the
 * commit, and arrive from it through `deliver`.
 */
@Injectable()
export class EventBus implements OnModuleInit {
  private readonly logger = new Logger('EventBus');
  private readonly subscribers = new Map<BusEventName, Subscriber[]>();
  private transport: BusTransport | undefined;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** Subscribes the `@OnBusEvent` methods of every provider. */
  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = (instance as Record<string, unknown>)[method];
        if (typeof handler !== 'function') continue;
        for (const subscription of busSubscriptionsOf(handler)) {
          this.add(subscription.name, {
            phase: subscription.phase,
            wants: subscription.wants && ((payload) => subscription.wants!(instance, payload)),
            handle: (payload) => (handler as (payload: unknown) => unknown).call(instance, payload),
          });
        }
      }
    }
  }

  /**
   * Publishes a change. Inside a unit of work: the in-transaction subscribers run now, in it (a failure throws and
   * rolls the change back); the after-commit subscribers and the other processes hear it once it has committed, and
   * the unit of work resolves after them. Outside one (the change has committed already): the after-commit
   * subscribers start at once, and the in-transaction ones run in a transaction of their own; failures are logged.
   */
  async publish<K extends BusEventName>(name: K, payload: EventMap[K]): Promise<void> {
    const subscribers = this.subscribers.get(name) ?? [];
    const inTransaction = subscribers.filter((s) => s.phase === 'transaction' && (!s.wants || s.wants(payload)));
    if (this.unitOfWork.transaction) {
      for (const subscriber of inTransaction) await subscriber.handle(payload);
      this.unitOfWork.afterCommit(() => this.announce(name, payload));
      return;
    }
    // Committed already: the after-commit subscribers start at once, beside the in-transaction ones' own transaction.
    const announced = this.announce(name, payload);
    if (inTransaction.length > 0) {
      await this.unitOfWork
        .run(async () => {
          for (const subscriber of inTransaction) await subscriber.handle(payload);
        })
        .catch((error: unknown) => this.logger.error({ err: error, event: name }, 'in-transaction subscriber failed'));
    }
    await announced;
  }

  /**
   * Whether publishing `name` would make anyone work (no I/O): an in-transaction subscriber that wants `payload` (null:
   * any payload of the name), an after-commit subscriber, or the other processes. A change nobody wants needs neither
   * a transaction nor a publication: the turn's write stays one statement without webhooks.
   */
  wants<K extends BusEventName>(name: K, payload: EventMap[K] | null): boolean {
    if (BROADCAST_EVENTS.has(name)) return true;
    return (this.subscribers.get(name) ?? []).some((s) => s.phase === 'afterCommit' || !s.wants || s.wants(payload));
  }

  /** An event another process published: this process's after-commit subscribers only. */
  deliver<K extends BusEventName>(name: K, payload: EventMap[K]): Promise<void> {
    return this.afterCommit(name, payload);
  }

  /** Subscribes `listener` until the returned function is called. */
  on<K extends BusEventName>(name: K, listener: (payload: EventMap[K]) => unknown, options: SubscribeOptions<K> = {}): () => void {
    const subscriber: Subscriber = {
      phase: options.phase ?? 'afterCommit',
      wants: options.wants as Subscriber['wants'],
      handle: listener as Subscriber['handle'],
    };
    this.add(name, subscriber);
    return () => {
      const list = this.subscribers.get(name) ?? [];
      this.subscribers.set(
        name,
        list.filter((s) => s !== subscriber),
      );
    };
  }

  useTransport(transport: BusTransport): void {
    this.transport = transport;
  }

  private add(name: BusEventName, subscriber: Subscriber): void {
    this.subscribers.set(name, [...(this.subscribers.get(name) ?? []), subscriber]);
  }

  private async announce<K extends BusEventName>(name: K, payload: EventMap[K]): Promise<void> {
    if (BROADCAST_EVENTS.has(name)) this.transport?.publish(name, payload);
    await this.afterCommit(name, payload);
  }

  private async afterCommit<K extends BusEventName>(name: K, payload: EventMap[K]): Promise<void> {
    const subscribers = (this.subscribers.get(name) ?? []).filter((s) => s.phase === 'afterCommit');
    await Promise.all(
      subscribers.map(async (subscriber) => {
        try {
          await subscriber.handle(payload);
        } catch (error) {
          this.logger.error({ err: error, event: name }, 'event subscriber failed');
        }
      }),
    );
  }
}
