import WebSocket from 'ws';

/** A WebSocket session client for tests: collects every frame and waits for the ones a test expects. */
export interface Client {
  socket: WebSocket;
  frames: any[];
  /** Resolves with the first frame (already received or future) that matches, consuming nothing. */
  next(match: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  /** All frames of one request id up to its `done` or `error`. */
  request(id: string): Promise<any[]>;
  closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown): void;
}

export function connect(
  url: string,
  /** `localAddress`: connect from this address (a loopback alias such as 127.0.0.2), the client IP the service sees. */
  options: { headers?: Record<string, string>; protocols?: string[]; localAddress?: string } = {},
): Client {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers, localAddress: options.localAddress });
  const frames: any[] = [];
  const waiters: Array<{ match: (f: any) => boolean; resolve: (f: any) => void }> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    frames.push(frame);
    for (const w of [...waiters]) {
      if (w.match(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(frame);
      }
    }
  });
  socket.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = (match: (frame: any) => boolean, timeoutMs = 10_000) =>
    new Promise<any>((resolve, reject) => {
      const seen = frames.find(match);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no matching frame; got ${JSON.stringify(frames).slice(0, 500)}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  return {
    socket,
    frames,
    next,
    closed,
    async request(id) {
      await next((f) => f.id === id && (f.type === 'done' || f.type === 'error'));
      return frames.filter((f) => f.id === id);
    },
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
  };
}
