/**
 * A local fake of the OpenAI Chat Completions API (POST /v1/chat/completions), JSON and SSE, for tests.
 * Deterministic: the reply is the "## Draft reply" section of the system prompt the runtime sends (so
 * citation markers and product names appear), unless `reply` overrides it. Usage is derived from the
 * request size, unless `usage` fixes it or `omitUsage` leaves it out. It can answer an error status or hang, either for every request (`behave`) or when the
 * last user message contains `[[fail:503]]` or `[[hang]]`.
 *
 *   const fake = await startFakeOpenAI();
 *   // OPENAI_BASE_URL = fake.url  (ends in /v1, as the SDK expects)
 *   ...; await fake.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeBehaviour {
  /** Answer every request with this HTTP status and an error body. */
  failStatus?: number;
  /** Never answer (tests the client's timeout). */
  hang?: boolean;
  /** Send the first stream chunk, then stall. */
  hangAfterFirstChunk?: boolean;
  /** Override the reply text. */
  reply?: (request: FakeRequest) => string;
  cachedTokens?: number;
  reasoningTokens?: number;
  /** Report exactly these counts instead of ones derived from the request (e.g. with an empty reply). */
  usage?: { input: number; output: number };
  /** Report no usage at all (no `usage` field, no usage chunk), as some OpenAI-compatible servers do. */
  omitUsage?: boolean;
  /** Pieces per SSE chunk are words; delay between chunks in ms (default 0). */
  chunkDelayMs?: number;
}

export interface FakeServer {
  /** Base URL for the SDK / provider configuration. */
  url: string;
  port: number;
  requests: FakeRequest[];
  behave(b: FakeBehaviour): void;
  close(): Promise<void>;
}

export function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

/** Text of a message `content` (string or content parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p: { type?: string; text?: string }) => (p?.type === 'text' ? (p.text ?? '') : '')).join(' ');
  }
  return '';
}

/** The reply the fakes write: the runtime's draft from the system prompt, else an echo of the user. */
export function fakeReply(system: string, lastUser: string): string {
  const m = /## Draft reply\n([\s\S]*?)\n\nRewrite the draft/.exec(system);
  if (m?.[1]?.trim()) return m[1].trim();
  return `You said: ${lastUser}`;
}

/** Word-ish pieces that concatenate to the text. */
export function pieces(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

export function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export interface Harness {
  server: ReturnType<typeof createServer>;
  requests: FakeRequest[];
  behaviour: FakeBehaviour;
  listen(): Promise<{ port: number }>;
  close(): Promise<void>;
}

/** Shared plumbing: request recording, socket tracking (so close() never waits on a hung request). */
export function harness(handle: (req: FakeRequest, res: ServerResponse, behaviour: FakeBehaviour) => void | Promise<void>): Harness {
  const requests: FakeRequest[] = [];
  const behaviour: FakeBehaviour = {};
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const record: FakeRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/', headers: req.headers, body };
      requests.push(record);
      await handle(record, res, behaviour);
    })();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    server,
    requests,
    behaviour,
    listen: () =>
      new Promise((resolve) => {
        server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as AddressInfo).port }));
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function magic(lastUser: string, behaviour: FakeBehaviour): { failStatus?: number; hang?: boolean } {
  const fail = /\[\[fail:(\d{3})\]\]/.exec(lastUser);
  return { failStatus: fail ? Number(fail[1]) : behaviour.failStatus, hang: /\[\[hang\]\]/.test(lastUser) || behaviour.hang };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeOpenAI(initial: FakeBehaviour = {}): Promise<FakeServer> {
  let seq = 0;
  const h = harness(async (req, res, b) => {
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Unknown path ${req.path}`, type: 'invalid_request_error', code: 'not_found' } }));
      return;
    }
    const messages = (req.body.messages as Array<{ role: string; content: unknown }>) ?? [];
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => contentText(m.content))
      .join('\n');
    const lastUser = contentText([...messages].reverse().find((m) => m.role === 'user')?.content);
    const { failStatus, hang } = magic(lastUser, b);
    if (hang) return; // never answer
    if (failStatus) {
      res.writeHead(failStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Simulated failure ${failStatus}`, type: 'server_error', code: null } }));
      return;
    }
    const text = b.reply ? b.reply(req) : fakeReply(system, lastUser);
    const prompt = b.usage?.input ?? messages.reduce((n, m) => n + approxTokens(contentText(m.content)), 0);
    const completion = b.usage?.output ?? pieces(text).length;
    const cached = Math.min(b.cachedTokens ?? 0, prompt);
    const reasoning = b.reasoningTokens ?? 0;
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion + reasoning,
      total_tokens: prompt + completion + reasoning,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: reasoning,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    const id = `chatcmpl-fake${(seq += 1)}`;
    const model = String(req.body.model ?? 'fake-model');
    const created = Math.floor(Date.now() / 1000);
    if (!req.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          ...(b.omitUsage ? {} : { usage }),
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    send(chunk({ role: 'assistant', content: '' }, null));
    let first = true;
    for (const piece of pieces(text)) {
      send(chunk({ content: piece }, null));
      if (first && b.hangAfterFirstChunk) return;
      first = false;
      if (b.chunkDelayMs) await sleep(b.chunkDelayMs);
    }
    send(chunk({}, 'stop'));
    const includeUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
    if (includeUsage && !b.omitUsage) send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    res.write('data: [DONE]\n\n');
    res.end();
  });
  Object.assign(h.behaviour, initial);
  const { port } = await h.listen();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests: h.requests,
    behave: (b) => {
      for (const k of Object.keys(h.behaviour)) delete (h.behaviour as Record<string, unknown>)[k];
      Object.assign(h.behaviour, b);
    },
    close: h.close,
  };
}
