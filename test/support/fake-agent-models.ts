/**
 * Local fakes of the OpenAI Chat Completions and Anthropic Messages APIs that call tools, for agent-mode tests
 * (docs/agents.md). Each model call answers the next scripted step: text, tool calls, or a hang. JSON and SSE both
 * speak the real wire protocols: OpenAI streams tool calls as `delta.tool_calls` pieces keyed by `index` (the id and
 * name first, the arguments split over several chunks, as OpenAI and vLLM do) with `finish_reason: "tool_calls"` and a
 * usage chunk; Anthropic streams `tool_use` content blocks with `input_json_delta` pieces and `stop_reason: "tool_use"`.
 * Every call reports a known usage, summed in `reported` so tests can compare the service's figures with it.
 *
 *   const fake = await startAgentModel('openai');
 *   fake.script([{ calls: [{ name: 'search_knowledge', arguments: { query: 'returns' } }] }, { text: 'Within 30 days [1].' }]);
 */
import type { ServerResponse } from 'node:http';
import { harness, type FakeRequest } from './fake-openai-server.js';

export interface ScriptedCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as it is (malformed JSON, oversized arguments). */
  arguments: Record<string, unknown> | string;
}

export interface ScriptedStep {
  text?: string;
  calls?: ScriptedCall[];
  /** Never answer (the service's deadlines must end the call). */
  hang?: boolean;
  /** Reported for this call; default input 100 + 10 × call number, output 7. */
  usage?: { input: number; output: number };
}

/** A step, or a function of the request that chooses one (e.g. reads the tool results so far). */
export type Script = ScriptedStep | ((request: FakeRequest, call: number) => ScriptedStep);

export interface AgentModelFake {
  provider: 'openai' | 'anthropic';
  /** The base URL for OPENAI_BASE_URL / ANTHROPIC_BASE_URL. */
  url: string;
  /** Model calls received, in order. */
  requests: FakeRequest[];
  /** The usage reported so far, summed. */
  reported: { input: number; output: number };
  /** Replaces the script; calls beyond it answer `fallback` (default: a plain text reply). */
  script(steps: Script[], fallback?: ScriptedStep): void;
  close(): Promise<void>;
}

/** Tool results the service sent back in a request, in order: OpenAI `tool` messages or Anthropic `tool_result` blocks. */
export function toolResults(request: FakeRequest): Array<{ id: string; content: string; isError: boolean }> {
  const messages = (request.body.messages as Array<{ role: string; content: unknown; tool_call_id?: string }>) ?? [];
  const out: Array<{ id: string; content: string; isError: boolean }> = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const content = String(m.content);
      out.push({ id: m.tool_call_id ?? '', content, isError: /^\{"error"/.test(content) });
    } else if (m.role === 'user' && Array.isArray(m.content)) {
      for (const block of m.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>) {
        if (block.type === 'tool_result') {
          out.push({ id: block.tool_use_id ?? '', content: String(block.content), isError: Boolean(block.is_error) });
        }
      }
    }
  }
  return out;
}

/** The tool names a request offered the model. */
export function offeredTools(request: FakeRequest): string[] {
  const tools = (request.body.tools as Array<{ name?: string; function?: { name: string } }>) ?? [];
  return tools.map((t) => t.function?.name ?? t.name ?? '');
}

function split(text: string, parts: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argumentsText(call: ScriptedCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

export async function startAgentModel(provider: 'openai' | 'anthropic'): Promise<AgentModelFake> {
  let steps: Script[] = [];
  let fallback: ScriptedStep = { text: 'Done.' };
  let calls = 0;
  const reported = { input: 0, output: 0 };
  const path = provider === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  const h = harness(async (req, res) => {
    if (req.method !== 'POST' || req.path !== path) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Unknown path ${req.path}` } }));
      return;
    }
    calls += 1;
    const script = steps.shift() ?? fallback;
    const step = typeof script === 'function' ? script(req, calls) : script;
    if (step.hang) return;
    const usage = step.usage ?? { input: 100 + 10 * calls, output: 7 };
    reported.input += usage.input;
    reported.output += usage.output;
    if (provider === 'openai') await answerOpenAI(req, res, step, usage, calls);
    else await answerAnthropic(req, res, step, usage, calls);
  });
  const { port } = await h.listen();
  return {
    provider,
    url: provider === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    requests: h.requests,
    reported,
    script(next, otherwise) {
      steps = [...next];
      if (otherwise) fallback = otherwise;
    },
    close: h.close,
  };
}

async function answerOpenAI(
  req: FakeRequest,
  res: ServerResponse,
  step: ScriptedStep,
  usage: { input: number; output: number },
  n: number,
) {
  const id = `chatcmpl-agent${n}`;
  const model = String(req.body.model ?? 'fake-model');
  const created = Math.floor(Date.now() / 1000);
  const calls = (step.calls ?? []).map((c, i) => ({ id: `call_${n}_${i + 1}`, name: c.name, arguments: argumentsText(c) }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  const wireUsage = { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
  if (!req.body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: step.text ?? null,
              refusal: null,
              ...(calls.length
                ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
                : {}),
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage: wireUsage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' }, null);
  for (const piece of split(step.text ?? '', 4)) chunk({ content: piece }, null);
  calls.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, null);
    for (const piece of split(c.arguments, 3)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
  });
  chunk({}, finish);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: wireUsage })}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

async function answerAnthropic(
  req: FakeRequest,
  res: ServerResponse,
  step: ScriptedStep,
  usage: { input: number; output: number },
  n: number,
) {
  const id = `msg_agent${n}`;
  const model = String(req.body.model ?? 'fake-model');
  const calls = (step.calls ?? []).map((c, i) => ({ id: `toolu_${n}_${i + 1}`, name: c.name, arguments: argumentsText(c) }));
  const stopReason = calls.length ? 'tool_use' : 'end_turn';
  const wireUsage = { input_tokens: usage.input, output_tokens: usage.output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  if (!req.body.stream) {
    const content: unknown[] = step.text ? [{ type: 'text', text: step.text }] : [];
    for (const c of calls) {
      let input: unknown;
      try {
        input = JSON.parse(c.arguments);
      } catch {
        input = { raw: c.arguments };
      }
      content.push({ type: 'tool_use', id: c.id, name: c.name, input });
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: wireUsage,
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
      usage: { ...wireUsage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (step.text) {
    send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of split(step.text, 4)) {
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  for (const c of calls) {
    send('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
    });
    for (const piece of split(c.arguments, 3)) {
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}
