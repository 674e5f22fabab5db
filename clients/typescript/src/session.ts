import { ApiError } from './errors.js';
import type { components } from './schema.js';
import type { SendMessageBody } from './stream.js';
import type { PublishableKeyTokens } from './tokens.js';

type Schemas = components['schemas'];

/** Server → client frames of one request on `GET /messaging/v1/session` (docs/streaming.md), by `type`. */
export type SessionFrame =
  | { type: 'thread'; id: string; thread_id: string; interaction_id: string }
  | { type: 'delta'; id: string; text: string }
  | { type: 'card'; id: string; card: Schemas['CardResponseDto'] }
  | ({ type: 'message'; id: string } & Schemas['StreamMessageEventDto'])
  | ({ type: 'suggestions'; id: string } & Schemas['StreamSuggestionsEventDto'])
  | { type: 'done'; id: string };

/** `type` keeps this from being a weak (all-optional) type, which an ErrorEvent would not match. */
export interface WebSocketEventLike {
  type: string;
  data?: unknown;
  code?: number;
  reason?: string;
}

/** The little of a WebSocket this needs: the browser's `WebSocket` and the `ws` package both fit. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message' | 'close' | 'error', listener: (event: WebSocketEventLike) => void): void;
}

export interface SessionOptions {
  baseUrl: string;
  tokens: PublishableKeyTokens;
  /** Opens the socket; default `new WebSocket(url, protocols)` (browsers, Node 22+). */
  connect?: (url: string, protocols: string[]) => WebSocketLike;
}

type Inbound =
  SessionFrame | { type: 'ready'; session_id: string } | { type: 'pong' } | { type: 'error'; id: string | null; error: unknown };

interface Waiter {
  frames: SessionFrame[];
  failure?: ApiError;
  wake?: () => void;
}

/**
 * One authenticated WebSocket session (many turns, several at once): `send()` yields the frames of that request
 * until `done`. The token rides in the `bearer` subprotocol, which browsers allow (no headers there). The session
 * is not resumable: after a close, open a new one and read finished turns from the thread.
 */
export class MessagingSession {
  private readonly waiters = new Map<string, Waiter>();
  private nextId = 1;
  private closed?: ApiError;

  private constructor(
    private readonly socket: WebSocketLike,
    /** Given by the server in its `ready` frame. */
    readonly sessionId: string,
  ) {
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', (event) =>
      this.fail(new ApiError(0, 'session_closed', `Session closed (${event.code}) ${event.reason ?? ''}`.trim())),
    );
  }

  static async open(options: SessionOptions): Promise<MessagingSession> {
    const url = `${options.baseUrl.replace(/^http/, 'ws')}/messaging/v1/session`;
    const protocols = ['bearer', await options.tokens.accessToken()];
    const connect =
      options.connect ??
      ((u: string, p: string[]) =>
        new (globalThis as unknown as { WebSocket: new (u: string, p: string[]) => WebSocketLike }).WebSocket(u, p));
    const socket = connect(url, protocols);
    const sessionId = await new Promise<string>((resolve, reject) => {
      socket.addEventListener('message', (event) => {
        const frame = JSON.parse(String(event.data)) as Inbound;
        if (frame.type === 'ready') resolve(frame.session_id);
      });
      socket.addEventListener('close', (event) => {
        if (event.code === 1008) options.tokens.invalidate();
        reject(new ApiError(0, 'session_closed', `Session refused (${event.code}) ${event.reason ?? ''}`.trim()));
      });
      socket.addEventListener('error', () => reject(new ApiError(0, 'session_closed', 'Session could not connect')));
    });
    return new MessagingSession(socket, sessionId);
  }

  /** One turn over the session; throws `ApiError` for its `error` frame. */
  async *send(message: SendMessageBody): AsyncGenerator<SessionFrame, void, undefined> {
    if (this.closed) throw this.closed;
    const id = String(this.nextId++);
    const waiter: Waiter = { frames: [] };
    this.waiters.set(id, waiter);
    try {
      this.socket.send(JSON.stringify({ ...message, type: 'message', id }));
      for (;;) {
        const frame = waiter.frames.shift();
        if (frame) {
          yield frame;
          if (frame.type === 'done') return;
          continue;
        }
        if (waiter.failure) throw waiter.failure;
        await new Promise<void>((resolve) => (waiter.wake = resolve));
      }
    } finally {
      this.waiters.delete(id);
    }
  }

  close(): void {
    this.socket.close(1000);
  }

  private receive(text: string): void {
    const frame = JSON.parse(text) as Inbound;
    if (frame.type === 'ready' || frame.type === 'pong') return;
    const waiter = frame.id === null ? undefined : this.waiters.get(frame.id);
    if (!waiter) return;
    if (frame.type === 'error') waiter.failure = ApiError.fromBody(0, frame);
    else waiter.frames.push(frame);
    waiter.wake?.();
  }

  private fail(error: ApiError): void {
    this.closed = error;
    for (const waiter of this.waiters.values()) {
      waiter.failure ??= error;
      waiter.wake?.();
    }
  }
}
