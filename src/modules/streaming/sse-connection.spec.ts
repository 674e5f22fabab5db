import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { sseFrame } from '../../common/http/sse.js';
import { SseConnection } from './sse-connection.js';

/** A response whose socket accepts writes only when `release()` is called (a reader that stopped reading). */
class StalledResponse extends Writable {
  readonly written: string[] = [];
  head: Record<string, unknown> | undefined;
  private pending: Array<() => void> = [];

  constructor() {
    super({ highWaterMark: 1024 });
  }

  writeHead(_status: number, headers: Record<string, unknown>): this {
    this.head = headers;
    return this;
  }

  flushHeaders(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.written.push(chunk.toString('utf8'));
    this.pending.push(callback);
  }

  /** The reader reads everything written so far. */
  release(): void {
    const pending = this.pending.splice(0);
    for (const callback of pending) callback();
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const open = (raw: StalledResponse, maxBufferedBytes: number) => {
  const connection = new SseConnection(raw as unknown as ServerResponse, { pingIntervalMs: 60_000, maxBufferedBytes });
  connection.open({ 'x-request-id': 'r1' });
  return connection;
};

describe('SseConnection', () => {
  it('writes the SSE headers over the ones set earlier (hijacked replies drop them)', () => {
    const raw = new StalledResponse();
    open(raw, 4096);
    expect(raw.head).toMatchObject({
      'x-request-id': 'r1',
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
  });

  it('formats frames with and without an id', () => {
    expect(sseFrame('a:1', 'delta', '{"text":"hi"}')).toBe('id: a:1\nevent: delta\ndata: {"text":"hi"}\n\n');
    expect(sseFrame('', 'error', '{}')).toBe('event: error\ndata: {}\n\n');
  });

  it('queues behind a full socket and delivers everything in order once the reader reads', async () => {
    const raw = new StalledResponse();
    const connection = open(raw, 64 * 1024);
    for (let i = 1; i <= 50; i++) expect(connection.send(`x:${i}`, 'delta', JSON.stringify({ text: 'y'.repeat(100) }))).toBe(true);
    connection.end();
    for (let i = 0; i < 100 && !raw.writableEnded; i++) {
      raw.release();
      await tick();
    }
    raw.release();
    const ids = raw.written.join('').match(/id: x:\d+/g)!;
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `id: x:${i + 1}`));
    expect(raw.writableEnded).toBe(true);
    expect(connection.wasCutOff).toBe(false);
  });

  it('cuts off a reader that stopped reading once the queue passes the bound', async () => {
    const raw = new StalledResponse();
    const connection = open(raw, 4096);
    let closed = false;
    connection.onClose(() => {
      closed = true;
    });
    let accepted = 0;
    for (let i = 1; i <= 200; i++) if (connection.send(`x:${i}`, 'delta', JSON.stringify({ text: 'y'.repeat(100) }))) accepted += 1;
    await tick();
    expect(connection.wasCutOff).toBe(true);
    expect(raw.destroyed).toBe(true);
    expect(closed).toBe(true);
    // Bounded: what was accepted fits in the socket's high-water mark plus the bound (plus one frame).
    expect(accepted * 130).toBeLessThan(1024 + 4096 + 200);
    expect(connection.send('x:201', 'delta', '{}')).toBe(false);
  });

  it('paces replays: sendPaced waits until the socket drains', async () => {
    const raw = new StalledResponse();
    const connection = open(raw, 4096);
    const big = JSON.stringify({ text: 'z'.repeat(2000) });
    let done = false;
    const sending = connection.sendPaced('x:1', 'delta', big).then((ok) => {
      done = ok;
    });
    await tick();
    expect(done).toBe(false);
    raw.release();
    await sending;
    expect(done).toBe(true);
    expect(connection.wasCutOff).toBe(false);
  });
});
