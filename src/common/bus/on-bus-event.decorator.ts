import type { BusEventName, EventMap } from './event-map.js';

/** When a subscriber runs: in the publisher's transaction (its work commits or rolls back with the change), or after. */
export type BusPhase = 'transaction' | 'afterCommit';

export interface BusSubscription {
  name: BusEventName;
  phase: BusPhase;
  wants: ((instance: unknown, payload: unknown) => boolean) | undefined;
}

const SUBSCRIPTIONS = Symbol('bus subscriptions');

/** The subscriptions `@OnBusEvent` declared on a method. */
export function busSubscriptionsOf(method: object): BusSubscription[] {
  return (method as { [SUBSCRIPTIONS]?: BusSubscription[] })[SUBSCRIPTIONS] ?? [];
}

/**
 * Marks a provider method as a subscriber of one bus event; the compiler checks that the method takes that event's
 * payload. `phase` (default `afterCommit`) says when it runs (see EventBus); `wants`, for in-transaction subscribers,
 * answers from memory whether it has work for a payload (null: for any), so that a change nobody wants costs nothing.
 */
export function OnBusEvent<K extends BusEventName, S extends object = object>(
  name: K,
  options: { phase?: BusPhase; wants?: (subscriber: S, payload: EventMap[K] | null) => boolean } = {},
): <T extends (payload: EventMap[K]) => unknown>(target: S, key: string | symbol, descriptor: TypedPropertyDescriptor<T>) => void {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as unknown as { [SUBSCRIPTIONS]?: BusSubscription[] };
    const subscription: BusSubscription = {
      name,
      phase: options.phase ?? 'afterCommit',
      wants: options.wants as BusSubscription['wants'],
    };
    method[SUBSCRIPTIONS] = [...(method[SUBSCRIPTIONS] ?? []), subscription];
  };
}
