/**
 * A local fake of the Anthropic Messages API (POST /v1/messages), JSON and SSE (message_start,
 * content_block_start, content_block_delta/text_delta, content_block_stop, message_delta with usage,
 * message_stop), for tests. Same deterministic reply, `usage` override and failure switches as the OpenAI
 * fake (`behave({...})`, or `[[fail:503]]` / `[[hang]]` in the last user message); Anthropic always reports
 * usage, so `omitUsage` does not apply.
 *
 *   const fake = await startFakeAnthropic();
 *   // ANTHROPIC_BASE_URL = fake.url  (no /v1: the SDK adds it)
 */
import type { FakeBehaviour, FakeServer } from './fake-openai-server.js';
import { approxTokens, contentText, fakeReply, harness, magic, pieces } from './fake-openai-server.js';

export type { FakeBehaviour, FakeRequest, FakeServer } from './fake-openai-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeAnthropic(initial: FakeBehaviour = {}): Promise<FakeServer> {
  let seq = 0;
  const h = harness(async (req, res, b) => {
    if (req.method !== 'POST' || req.path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `Unknown path ${req.path}` } }));
      return;
    }
    const system = typeof req.body.system === 'string' ? req.body.system : contentText(req.body.system);
    const messages = (req.body.messages as Array<{ role: string; content: unknown }>) ?? [];
    const lastUser = contentText([...messages].reverse().find((m) => m.role === 'user')?.content);
    const { failStatus, hang } = magic(lastUser, b);
    if (hang) return;
    if (failStatus) {
      res.writeHead(failStatus, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: failStatus === 529 ? 'overloaded_error' : 'api_error', message: `Simulated failure ${failStatus}` },
        }),
      );
      return;
    }
    const text = b.reply ? b.reply(req) : fakeReply(system, lastUser);
    const prompt = b.usage?.input ?? approxTokens(system) + messages.reduce((n, m) => n + approxTokens(contentText(m.content)), 0);
    const cached = Math.min(b.cachedTokens ?? 0, prompt);
    const input = b.usage ? prompt : prompt - cached;
    const output = b.usage?.output ?? pieces(text).length;
    const id = `msg_fake${(seq += 1)}`;
    const model = String(req.body.model ?? 'fake-model');
    if (!req.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: cached, cache_creation_input_tokens: 0 },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: input, output_tokens: 1, cache_read_input_tokens: cached, cache_creation_input_tokens: 0 },
      },
    });
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('ping', { type: 'ping' });
    let first = true;
    for (const piece of pieces(text)) {
      send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
      if (first && b.hangAfterFirstChunk) return;
      first = false;
      if (b.chunkDelayMs) await sleep(b.chunkDelayMs);
    }
    send('content_block_stop', { type: 'content_block_stop', index: 0 });
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: output },
    });
    send('message_stop', { type: 'message_stop' });
    res.end();
  });
  Object.assign(h.behaviour, initial);
  const { port } = await h.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: h.requests,
    behave: (b) => {
      for (const k of Object.keys(h.behaviour)) delete (h.behaviour as Record<string, unknown>)[k];
      Object.assign(h.behaviour, b);
    },
    close: h.close,
  };
}
