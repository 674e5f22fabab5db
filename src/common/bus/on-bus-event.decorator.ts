import { OnEvent } from '@nestjs/event-emitter';
import type { BusEventName, EventMap } from './event-map.js';

/**
 * Marks a provider method as a listener of one bus event; the compiler checks that the method takes that event's
 * payload. Errors are logged by the bus (suppressErrors), never thrown back to the emitter.
 */
export function OnBusEvent<K extends BusEventName>(
  name: K,
): <T extends (payload: EventMap[K]) => unknown>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<T>) => void {
  const decorator = OnEvent(name, { suppressErrors: true });
  return (target, key, descriptor) => {
    decorator(target, key, descriptor);
  };
}
