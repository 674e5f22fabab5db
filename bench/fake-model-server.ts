/**
 * An instantly answering OpenAI-compatible Chat Completions server for the `agent-loop` scenario (JSON only). It holds
 * no state: each answer follows from the request. A request with tools whose last user message contains `[steps:N]`
 * calls `search_knowledge` until the conversation holds N tool results, then answers citing [1]; any other request
 * (a compose turn) answers one sentence. Usage is reported, so the service never counts tokens itself.
 * Usage: `node dist/bench/fake-model-server.js <port>`.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);

interface Message {
  role: string;
  content: unknown;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { messages?: Message[]; tools?: unknown[] };
    const messages = body.messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const wanted = Number(/\[steps:(\d+)\]/.exec(typeof lastUser?.content === 'string' ? lastUser.content : '')?.[1] ?? 0);
    const done = messages.filter((m) => m.role === 'tool').length;
    const call = body.tools?.length && done < wanted;
    const message = call
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${done + 1}`,
              type: 'function',
              function: { name: 'search_knowledge', arguments: JSON.stringify({ query: `returns refund ${done}` }) },
            },
          ],
        }
      : { role: 'assistant', content: 'You can return unworn items within 30 days [1].' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 0,
        model: 'bench',
        choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop', logprobs: null }],
        usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
      }),
    );
  });
});

const shutdown = () => server.close(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening on ${port}\n`));
