import { ApiError } from './errors.js';
import type { components } from './schema.js';
import type { PublishableKeyTokens } from './tokens.js';

type Schemas = components['schemas'];
export type SendMessageBody = Schemas['SendMessageDto'];

/** One event of `POST /messaging/v1/messages/stream` (docs/streaming.md), typed by its name. */
export type StreamEvent =
  | { event: 'thread'; id: string; data: Schemas['StreamThreadEventDto'] }
  | { event: 'delta'; id: string; data: Schemas['StreamDeltaEventDto'] }
  | { event: 'card'; id: string; data: Schemas['StreamCardEventDto'] }
  | { event: 'message'; id: string; data: Schemas['StreamMessageEventDto'] }
  | { event: 'suggestions'; id: string; data: Schemas['StreamSuggestionsEventDto'] }
  | { event: 'done'; id: string; data: Record<string, never> };

export interface StreamOptions {
  baseUrl: string;
  tokens: PublishableKeyTokens;
  fetch?: typeof fetch;
  /** Reconnections with `Last-Event-ID` after a dropped connection before giving up (default 5). */
  maxResumes?: number;
  signal?: AbortSignal;
}

/**
 * Sends a message and yields the turn's events as they stream. A connection that drops before `done` is resumed
 * with `Last-Event-ID` (the last id received), so no event is lost or repeated and no second turn starts. An
 * `error` event or an error answer is thrown as `ApiError`.
 */
export async function* streamMessage(options: StreamOptions, body: SendMessageBody): AsyncGenerator<StreamEvent, void, undefined> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const maxResumes = options.maxResumes ?? 5;
  let lastId: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${await options.tokens.accessToken()}`,
    };
    if (lastId) headers['last-event-id'] = lastId;
    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}/messaging/v1/messages/stream`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: options.signal,
      });
    } catch (error) {
      // Nothing reached the service on a first attempt that fails here: nothing to resume yet.
      if (!lastId || attempt >= maxResumes || options.signal?.aborted) throw error;
      continue;
    }
    if (!response.ok || !response.body) {
      if (response.status === 401) options.tokens.invalidate();
      throw await ApiError.fromResponse(response);
    }
    try {
      for await (const raw of readEvents(response.body)) {
        if (raw.event === 'error') throw ApiError.fromBody(0, JSON.parse(raw.data));
        if (raw.id) lastId = raw.id;
        const event = { event: raw.event, id: raw.id, data: JSON.parse(raw.data) } as StreamEvent;
        yield event;
        if (event.event === 'done') return;
      }
    } catch (error) {
      if (error instanceof ApiError || options.signal?.aborted) throw error;
      // The connection broke mid-stream (reset, proxy timeout): resume below.
    }
    if (!lastId || attempt >= maxResumes) throw new ApiError(0, 'stream_interrupted', 'The stream ended before its done event');
  }
}

interface RawEvent {
  event: string;
  id: string;
  data: string;
}

/** Server-Sent Events framing: `field: value` lines, a blank line ends an event, `:` lines are comments (pings). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RawEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let event: RawEvent = { event: 'message', id: '', data: '' };
  let hasData = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (hasData) yield event;
          event = { event: 'message', id: '', data: '' };
          hasData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
        else if (field === 'data') {
          event.data = hasData ? `${event.data}\n${value}` : value;
          hasData = true;
        }
      }
    }
  } finally {
    // Also when the consumer stops early: release the connection.
    await reader.cancel().catch(() => undefined);
  }
}
