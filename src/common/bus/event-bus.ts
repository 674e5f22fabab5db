import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { BROADCAST_EVENTS, type BusEventName, type EventMap } from './event-map.js';

/** Carries broadcast events to the other processes of the deployment (BusRelay). */
export interface BusTransport {
  publish<K extends BusEventName>(name: K, payload: EventMap[K]): void;
}

/**
 * The typed in-process event bus over @nestjs/event-emitter. Listeners are methods decorated with `@OnBusEvent(name)`
 * (or `on()` for code that subscribes for a while, such as tests); a listener's error is logged, never thrown back
 * to the emitter. Broadcast events (BROADCAST_EVENTS) also go to the transport, and arrive from it through `deliver`.
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger('EventBus');
  private transport: BusTransport | undefined;

  constructor(private readonly emitter: EventEmitter2) {}

  /** Tells the listeners without waiting for them: for announcements the emitter need not sequence with. */
  emit<K extends BusEventName>(name: K, payload: EventMap[K]): void {
    this.emitter.emit(name, payload);
    if (BROADCAST_EVENTS.has(name)) this.transport?.publish(name, payload);
  }

  /** Tells the listeners and resolves once every one has finished (each listener's failure is logged). */
  async emitAsync<K extends BusEventName>(name: K, payload: EventMap[K]): Promise<void> {
    if (BROADCAST_EVENTS.has(name)) this.transport?.publish(name, payload);
    await this.emitter.emitAsync(name, payload);
  }

  /** An event another process emitted: this process's listeners only. */
  deliver<K extends BusEventName>(name: K, payload: EventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  /** Subscribes `listener` until the returned function is called. */
  on<K extends BusEventName>(name: K, listener: (payload: EventMap[K]) => unknown): () => void {
    const safe = async (payload: EventMap[K]) => {
      try {
        await listener(payload);
      } catch (error) {
        this.logger.error({ err: error, event: name }, 'event listener failed');
      }
    };
    this.emitter.on(name, safe);
    return () => void this.emitter.off(name, safe);
  }

  useTransport(transport: BusTransport): void {
    this.transport = transport;
  }
}
