// The Server-Sent Events wire format, shared by the live streams (streaming) and their replays (idempotency).

/** Headers that make proxies pass events through at once (nginx honours x-accel-buffering). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

/** One SSE frame: `id` (unless empty), `event`, one `data` line (JSON has no raw newlines), blank line. */
export function sseFrame(id: string, event: string, json: string): string {
  return id ? `id: ${id}\nevent: ${event}\ndata: ${json}\n\n` : `event: ${event}\ndata: ${json}\n\n`;
}
