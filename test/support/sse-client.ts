/**
 * A real SSE client over fetch's body stream, as a browser would use it for a POST stream: a spec-conformant
 * line parser (id, event, data, comments), the status and headers, and abort() to drop the connection mid-stream.
 */
export interface SseEvent {
  id?: string;
  event: string;
  /** The `data` payload parsed as JSON. */
  data: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Parsed JSON body when the answer is not an event stream (errors before the first event). */
  body: any;
  /** Comment lines seen so far (e.g. `ping`). */
  comments: string[];
  /** Events in arrival order; ends when the server ends the stream (or after abort()). */
  events(): AsyncGenerator<SseEvent>;
  /** Reads events until `stop` says so (the matching event included) or the stream ends. */
  collect(stop?: (event: SseEvent, all: SseEvent[]) => boolean): Promise<SseEvent[]>;
  /** Drops the connection, as a client that goes away does. */
  abort(): void;
}

export interface SseRequest {
  /** POST (the default: a turn's stream) or GET (a subscription such as a thread's events). */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  lastEventId?: string;
}

export async function openSse(baseUrl: string, path: string, request: SseRequest = {}): Promise<SseStream> {
  const controller = new AbortController();
  const method = request.method ?? 'POST';
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    ...request.headers,
  };
  if (request.lastEventId !== undefined) headers['last-event-id'] = request.lastEventId;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: controller.signal,
  });
  const comments: string[] = [];
  const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  let body: any;
  if (!isStream) {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
  }

  async function* events(): AsyncGenerator<SseEvent> {
    if (!isStream || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let current: { id?: string; event?: string; data: string[] } = { data: [] };
    const reader = response.body.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          return; // aborted or cut off
        }
        if (chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        let newline: number;
        while ((newline = buffer.search(/\r\n|\n|\r/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (current.data.length > 0 || current.event) {
              yield { id: current.id, event: current.event ?? 'message', data: JSON.parse(current.data.join('\n')) };
            }
            current = { data: [] };
            continue;
          }
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'id') current.id = value;
          else if (field === 'event') current.event = value;
          else if (field === 'data') current.data.push(value);
        }
      }
    } finally {
      reader.releaseLock();
    }
  }

  const iterator = events();
  return {
    status: response.status,
    headers: response.headers,
    body,
    comments,
    events: () => iterator,
    async collect(stop) {
      // next() rather than for-await: breaking out of for-await would close the stream for later reads.
      const all: SseEvent[] = [];
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return all;
        all.push(value);
        if (stop?.(value, all)) return all;
      }
    },
    abort: () => controller.abort(),
  };
}
