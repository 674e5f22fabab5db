import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { SSE_HEADERS, sseFrame } from '../../common/http/sse.js';

export interface SseOptions {
  /** A `: ping` comment this often while the stream is open. */
  pingIntervalMs: number;
  /** Cut the client off when more than this many bytes wait unsent in the response. */
  maxBufferedBytes: number;
}

/**
 * The client side of one SSE response on a hijacked Fastify reply: headers set earlier by hooks
 * (x-request-id, CORS, security headers) are copied into `writeHead`, because a hijacked reply drops them.
 *
 * Backpressure: a frame goes to the socket only while the socket accepts more (`write()` returned true, or after
 * `drain`); frames produced meanwhile wait in a queue here. When that queue passes `maxBufferedBytes` (the reader
 * stopped reading) the response is destroyed instead of buffering further, and the client resumes from the replay
 * buffer. Memory per stream is bounded by the bound plus one event plus the socket's high-water mark. Replays use
 * `sendPaced`, which waits for the socket instead of queueing.
 */
export class SseConnection {
  private opened = false;
  private ended = false;
  private cut = false;
  private waiting = false;
  private endWhenFlushed = false;
  private readonly queue: string[] = [];
  private queuedBytes = 0;
  private corked = false;
  private ping: NodeJS.Timeout | undefined;
  private readonly closeListeners: Array<() => void> = [];
  private readonly sendListeners: Array<(id: string, event: string, json: string) => void> = [];

  constructor(
    private readonly raw: ServerResponse,
    private readonly options: SseOptions,
  ) {}

  static forReply(reply: FastifyReply, options: SseOptions): { connection: SseConnection; open: () => void } {
    const connection = new SseConnection(reply.raw, options);
    const open = () => {
      reply.hijack();
      connection.open(reply.getHeaders() as Record<string, string | string[] | number>);
    };
    return { connection, open };
  }

  /** True once the client went away, the stream was cut off, or `end()` ran: writes are then dropped. */
  get closed(): boolean {
    return this.ended || this.cut || this.raw.destroyed || this.raw.writableEnded;
  }

  get wasCutOff(): boolean {
    return this.cut;
  }

  onClose(listener: () => void): void {
    if (this.closed && this.opened) {
      listener();
      return;
    }
    this.closeListeners.push(listener);
  }

  open(headers: Record<string, string | string[] | number> = {}): void {
    if (this.opened) return;
    this.opened = true;
    this.raw.writeHead(200, { ...headers, ...SSE_HEADERS });
    this.raw.flushHeaders();
    this.raw.on('close', () => this.finish());
    this.raw.on('drain', () => this.flush());
    this.ping = setInterval(() => {
      if (!this.waiting) this.write(': ping\n\n');
    }, this.options.pingIntervalMs);
    this.ping.unref();
  }

  /** Calls `listener` with every event sent, those a departed client no longer receives included (idempotent replays). */
  onSend(listener: (id: string, event: string, json: string) => void): void {
    this.sendListeners.push(listener);
  }

  /** Writes one event now or queues it behind a full socket; false when the client is gone or was cut off. */
  send(id: string, event: string, json: string): boolean {
    for (const listener of this.sendListeners) listener(id, event, json);
    return this.write(sseFrame(id, event, json));
  }

  /** Writes one event and waits until the socket takes more (for replays, which can go at the reader's pace). */
  async sendPaced(id: string, event: string, json: string): Promise<boolean> {
    if (!this.send(id, event, json)) return false;
    while (this.waiting && !this.closed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.raw.off('drain', done).off('close', done);
          resolve();
        };
        this.raw.on('drain', done).on('close', done);
      });
    }
    return !this.closed;
  }

  /** Ends the response once every queued frame is written (a normal end of stream). */
  end(): void {
    if (this.ended || this.endWhenFlushed) return;
    if (this.waiting && !this.closed) {
      this.endWhenFlushed = true;
      return;
    }
    this.ended = true;
    if (this.corked) {
      // From Node 22 on, end() on a corked response drops what was written since the cork (Node 20 sent it).
      this.corked = false;
      this.raw.uncork();
    }
    if (this.opened && !this.raw.destroyed && !this.raw.writableEnded) this.raw.end();
    this.finish();
  }

  private write(chunk: string): boolean {
    if (this.closed) return false;
    if (this.waiting) {
      this.queue.push(chunk);
      this.queuedBytes += Buffer.byteLength(chunk);
      if (this.queuedBytes > this.options.maxBufferedBytes) {
        // The reader is not keeping up: stop here rather than buffer without bound.
        this.cut = true;
        this.queue.length = 0;
        this.queuedBytes = 0;
        this.raw.destroy();
        this.finish();
        return false;
      }
      return true;
    }
    if (!this.corked) {
      // Frames written in one turn of the event loop (a batch of deltas) leave in one syscall.
      this.corked = true;
      this.raw.cork();
      process.nextTick(() => {
        if (!this.corked) return; // end() uncorked already
        this.corked = false;
        this.raw.uncork();
        // A corked write past the high-water mark returned false, but from Node 22 on no 'drain' follows when the
        // uncork hands everything to the socket at once (Node 20 emitted one). What the socket did not take counts in
        // writableLength: below the mark there is nothing to wait for; above it the socket's 'drain' still comes.
        if (this.waiting && this.raw.writableLength < this.raw.writableHighWaterMark) this.flush();
      });
    }
    if (!this.raw.write(chunk)) this.waiting = true;
    return true;
  }

  private flush(): void {
    this.waiting = false;
    while (this.queue.length > 0 && !this.closed) {
      const chunk = this.queue.shift()!;
      this.queuedBytes -= Buffer.byteLength(chunk);
      if (!this.raw.write(chunk)) {
        this.waiting = true;
        return;
      }
    }
    if (this.endWhenFlushed) {
      this.endWhenFlushed = false;
      this.end();
    }
  }

  private finish(): void {
    if (this.ping) clearInterval(this.ping);
    this.ping = undefined;
    const listeners = this.closeListeners.splice(0);
    for (const listener of listeners) listener();
  }
}
