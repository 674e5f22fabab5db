import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { TokenUsage } from '../runtime.types.js';
import {
  type AgentModelRequest,
  type AgentModelResponse,
  type ChatMessage,
  type CompletionChunk,
  type CompletionRequest,
  type CompletionResult,
  type LlmProvider,
  type ToolCallRequest,
} from './llm-provider.js';
import { reportedUsage } from './llm-provider.js';
import { Deadline, providerEndpoint, toProviderError, type ProviderEndpoint } from './provider-errors.js';

export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';
const DEFAULT_MAX_TOKENS = 1024;

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Where the provider calls when its *_BASE_URL is not set. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/**
 * Anthropic reports input without cache reads already; it has no separate reasoning counter. Null when
 * nothing was reported (a gateway that strips usage).
 */
export function anthropicUsage(u: AnthropicUsage | null | undefined): TokenUsage | null {
  return reportedUsage({
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_read_tokens: u?.cache_read_input_tokens ?? 0,
    reasoning_tokens: 0,
  });
}

/**
 * The Messages API wants a conversation that starts with the user and alternates roles: leading agent turns
 * are dropped and consecutive turns of one role are joined.
 */
export function alternate(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (!out.length && m.role !== 'user') continue;
    const prev = out[out.length - 1];
    if (prev && prev.role === m.role) prev.content = [prev.content, m.content].filter(Boolean).join('\n\n');
    else out.push({ ...m });
  }
  return out;
}

/** A tool call's arguments as the `tool_use` input object we send back (the loop refused anything else already). */
function toolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The Messages API through the official SDK (`ANTHROPIC_BASE_URL` for a gateway or a local fake). */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic' as const;
  /** Named in this provider's errors and in the trace (docs/operations.md). */
  readonly endpoint: ProviderEndpoint;
  readonly defaultModel = ANTHROPIC_DEFAULT_MODEL;
  private readonly client: Anthropic;

  constructor(
    options: { apiKey?: string; baseUrl?: string },
    private readonly timeoutMs: number,
  ) {
    this.endpoint = providerEndpoint('anthropic', options.baseUrl);
    this.client = new Anthropic({
      apiKey: options.apiKey ?? 'not-configured',
      baseURL: options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
      timeout: timeoutMs,
      maxRetries: 1,
    });
  }

  private body(request: CompletionRequest) {
    const messages: MessageParam[] = [];
    const turns = alternate(request.messages);
    turns.forEach((m, i) => {
      const last = i === turns.length - 1;
      if (last && m.role === 'user' && request.imageUrl) {
        const content: ContentBlockParam[] = [{ type: 'image', source: { type: 'url', url: request.imageUrl } }];
        if (m.content) content.push({ type: 'text', text: m.content });
        messages.push({ role: 'user', content });
      } else messages.push({ role: m.role, content: m.content || '(no text)' });
    });
    return {
      model: request.model ?? this.defaultModel,
      system: request.system,
      messages,
      max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  /**
   * The compose body plus the loop's exchange: each assistant turn's text and `tool_use` blocks, then a user turn of
   * `tool_result` blocks (the Messages API's alternation holds: the conversation ends with the user's message).
   */
  private agentBody(request: AgentModelRequest) {
    const body = this.body(request);
    for (const turn of request.exchange) {
      if (turn.role === 'assistant') {
        const content: ContentBlockParam[] = turn.text ? [{ type: 'text', text: turn.text }] : [];
        for (const c of turn.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
        body.messages.push({ role: 'assistant', content });
      } else {
        body.messages.push({
          role: 'user',
          content: turn.results.map((r) => ({
            type: 'tool_result' as const,
            tool_use_id: r.callId,
            content: r.content,
            is_error: r.isError,
          })),
        });
      }
    }
    return {
      ...body,
      tools: request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters as { type: 'object'; [key: string]: unknown },
      })),
    };
  }

  async converse(request: AgentModelRequest): Promise<AgentModelResponse> {
    const deadline = new Deadline(this.timeoutMs);
    const signal = AbortSignal.any([deadline.signal, request.signal]);
    try {
      if (!request.stream) {
        const res = await this.client.messages.create({ ...this.agentBody(request), stream: false }, { signal });
        let text = '';
        const toolCalls: ToolCallRequest[] = [];
        for (const block of res.content) {
          if (block.type === 'text') text += block.text;
          else if (block.type === 'tool_use') {
            toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
          }
        }
        return { text, toolCalls, usage: anthropicUsage(res.usage) };
      }
      const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
      const stream = await this.client.messages.create({ ...this.agentBody(request), stream: true }, { signal });
      let text = '';
      // tool_use blocks start with their id and name; their input comes as partial JSON deltas of that block's index.
      const calls = new Map<number, ToolCallRequest>();
      for await (const event of stream) {
        if (event.type === 'message_start') Object.assign(usage, anthropicUsage(event.message.usage) ?? {});
        else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') text += event.delta.text;
          else if (event.delta.type === 'input_json_delta') {
            const call = calls.get(event.index);
            if (call) call.arguments += event.delta.partial_json;
          }
        } else if (event.type === 'message_delta') {
          const u = event.usage;
          if (u.output_tokens !== null && u.output_tokens !== undefined) usage.output_tokens = u.output_tokens;
          if (u.input_tokens) usage.input_tokens = u.input_tokens;
          if (u.cache_read_input_tokens) usage.cache_read_tokens = u.cache_read_input_tokens;
        }
      }
      if (deadline.timedOut || request.signal.aborted) throw new Error('stream stalled');
      // A tool_use with no input deltas has an empty input.
      const toolCalls = [...calls.values()].map((c) => ({ ...c, arguments: c.arguments || '{}' }));
      return { text, toolCalls, usage: reportedUsage(usage) };
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut || request.signal.aborted);
    } finally {
      deadline.clear();
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const deadline = new Deadline(this.timeoutMs);
    try {
      const res = await this.client.messages.create({ ...this.body(request), stream: false }, { signal: deadline.signal });
      const text = res.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      return { text, usage: anthropicUsage(res.usage) };
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut);
    } finally {
      deadline.clear();
    }
  }

  async *stream(request: CompletionRequest): AsyncIterable<CompletionChunk> {
    const deadline = new Deadline(this.timeoutMs);
    const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
    try {
      const stream = await this.client.messages.create({ ...this.body(request), stream: true }, { signal: deadline.signal });
      for await (const event of stream) {
        if (event.type === 'message_start') Object.assign(usage, anthropicUsage(event.message.usage) ?? {});
        else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          if (event.delta.text) yield { type: 'delta', text: event.delta.text };
        } else if (event.type === 'message_delta') {
          // message_delta carries cumulative counts; input counts appear when the server sends them.
          const u = event.usage;
          if (u.output_tokens !== null && u.output_tokens !== undefined) usage.output_tokens = u.output_tokens;
          if (u.input_tokens) usage.input_tokens = u.input_tokens;
          if (u.cache_read_input_tokens) usage.cache_read_tokens = u.cache_read_input_tokens;
        }
      }
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut);
    } finally {
      deadline.clear();
    }
    // The SDK ends a stream quietly when it is aborted: a deadline hit mid-stream is still a timeout.
    if (deadline.timedOut) throw toProviderError(this.endpoint, new Error('stream stalled'), true);
    const reported = reportedUsage(usage);
    if (reported) yield { type: 'usage', usage: reported };
  }
}
