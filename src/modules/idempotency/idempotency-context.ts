import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Route metadata of `@Idempotent()`. */
export const IDEMPOTENT = 'idempotency:route';

export interface IdempotentOptions {
  /** The route answers Server-Sent Events: the stored response is the stream's events (see recordIdempotentStream). */
  stream?: boolean;
}

const CONTEXT = Symbol('idempotency');

/** One stream event as its transport sent it. */
export interface RecordedStreamEvent {
  id: string;
  event: string;
  json: string;
}

/** What a stream transport offers for recording: every event it sends, also those a departed client misses. */
export interface RecordableStream {
  onSend(listener: (id: string, event: string, json: string) => void): void;
}

/** The state of a request running under an Idempotency-Key, kept on the request for the handler's share. */
export interface IdempotencyContext {
  resourceId: string;
  /** The events of a streamed response, once `recordIdempotentStream` attached the stream. */
  streamEvents?: RecordedStreamEvent[];
  /** Stores a finished stream's events as the key's response (set by the interceptor on stream routes). */
  storeStream?: (events: RecordedStreamEvent[]) => Promise<void>;
  /** True once `storeStream` stored them, before the final event was written. */
  streamStored?: boolean;
}

type WithContext = object & { [CONTEXT]?: IdempotencyContext };

export function setIdempotencyContext(request: object, context: IdempotencyContext): void {
  (request as WithContext)[CONTEXT] = context;
}

export function idempotencyContextOf(request: object): IdempotencyContext | undefined {
  return (request as WithContext)[CONTEXT];
}

/**
 * On a streamed route under an Idempotency-Key, records every event the stream sends (the turn runs to its end and
 * sends its events even when the client went away), so that a repeat replays the same events. A no-op otherwise.
 * Returns what the stream awaits before writing its final `done`: the response is stored first, so a client that
 * repeats the request as soon as it read `done` gets the replay, not "still in progress".
 */
export function recordIdempotentStream(
  request: object,
  stream: RecordableStream,
): ((id: string, json: string) => Promise<void>) | undefined {
  const context = idempotencyContextOf(request);
  if (!context) return undefined;
  const events: RecordedStreamEvent[] = [];
  context.streamEvents = events;
  stream.onSend((id, event, json) => events.push({ id, event, json }));
  return async (id, json) => {
    try {
      await context.storeStream?.([...events, { id, event: 'done', json }]);
      context.streamStored = context.storeStream !== undefined;
    } catch {
      // Not stored now: the interceptor stores the events again once the stream ended (or frees the key).
    }
  };
}

/**
 * The id reserved for what this request creates when it came with an Idempotency-Key (the same id again when a
 * repeat takes over from a first request that crashed), else undefined: the handler then makes a new one.
 */
export const IdempotentResourceId = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => idempotencyContextOf(ctx.switchToHttp().getRequest<object>())?.resourceId,
);
