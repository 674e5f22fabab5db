/**
 * One turn over `POST /messaging/v1/messages/stream` (docs/streaming.md). EventSource cannot POST or send a
 * bearer token, so the page reads the response body itself; when the connection drops before `done`, it repeats
 * the POST with `Last-Event-ID` and gets only the events after the last one it saw.
 */
import { apiError, streamUrl, type MessagingAuth } from './api';

export interface StreamEvent {
  event: string;
  id?: string;
  data: unknown;
}

const MAX_RESUMES = 5;

/** Server-sent events from a response body, per the HTML event-stream format (comments such as `: ping` skipped). */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event: { event?: string; id?: string; data?: string } = {};
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (event.data !== undefined) yield { event: event.event ?? 'message', id: event.id, data: JSON.parse(event.data) as unknown };
        event = {};
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
        else if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
      }
    }
  }
}

export interface TurnCallbacks {
  onEvent(event: StreamEvent): void;
  /** Called before each resume, with the id it resumes after. */
  onResume(lastEventId: string): void;
}

export async function streamTurn(auth: MessagingAuth, body: Record<string, unknown>, callbacks: TurnCallbacks): Promise<void> {
  let lastId: string | undefined;
  for (let attempt = 0; attempt <= MAX_RESUMES; attempt += 1) {
    if (lastId) {
      callbacks.onResume(lastId);
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${await auth.accessToken()}` };
    if (lastId) headers['last-event-id'] = lastId;
    let res: Response;
    try {
      res = await fetch(streamUrl(), { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (error) {
      if (lastId) continue;
      throw error;
    }
    // Failures before the first event are ordinary JSON errors with their status.
    if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) throw await apiError(res);
    try {
      for await (const event of readEvents(res.body)) {
        if (event.id) lastId = event.id;
        callbacks.onEvent(event);
        if (event.event === 'done' || event.event === 'error') return;
      }
    } catch {
      // The connection dropped mid-stream: resume below.
    }
    if (!lastId) throw new Error('The stream ended before its first event.');
  }
  throw new Error(`The stream dropped ${MAX_RESUMES + 1} times; the reply is saved in the thread.`);
}
