import OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { TokenUsage } from '../runtime.types.js';
import {
  type AgentModelRequest,
  type AgentModelResponse,
  type CompletionChunk,
  type CompletionRequest,
  type CompletionResult,
  type LlmProvider,
  type ToolCallRequest,
} from './llm-provider.js';
import { reportedUsage } from './llm-provider.js';
import { Deadline, providerEndpoint, toProviderError, type ProviderEndpoint } from './provider-errors.js';

export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** Where the provider calls when its *_BASE_URL is not set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/**
 * Our four counters from OpenAI's: cached prompt tokens and reasoning tokens are reported apart from
 * (not inside) input and output, so the four add up to OpenAI's total_tokens and match Anthropic's
 * accounting, where input_tokens already excludes cache reads. Null when the server reported no usage
 * (OpenAI-compatible servers may omit it, in streams especially).
 */
export function openAIUsage(u: OpenAIUsage | null | undefined): TokenUsage | null {
  if (!u) return null;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = u.completion_tokens_details?.reasoning_tokens ?? 0;
  return reportedUsage({
    input_tokens: Math.max(0, (u.prompt_tokens ?? 0) - cached),
    output_tokens: Math.max(0, (u.completion_tokens ?? 0) - reasoning),
    cache_read_tokens: cached,
    reasoning_tokens: reasoning,
  });
}

/** Chat Completions through the official SDK: OpenAI or any OpenAI-compatible server (`OPENAI_BASE_URL`). */
export class OpenAIProvider implements LlmProvider {
  readonly name = 'openai' as const;
  /** Named in this provider's errors and in the trace (docs/operations.md). */
  readonly endpoint: ProviderEndpoint;
  readonly defaultModel = OPENAI_DEFAULT_MODEL;
  private readonly client: OpenAI;

  constructor(
    options: { apiKey?: string; baseUrl?: string },
    private readonly timeoutMs: number,
  ) {
    this.endpoint = providerEndpoint('openai', options.baseUrl);
    this.client = new OpenAI({
      apiKey: options.apiKey ?? 'not-configured',
      baseURL: options.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
      timeout: timeoutMs,
      maxRetries: 1,
    });
  }

  private body(request: CompletionRequest) {
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system }];
    request.messages.forEach((m, i) => {
      const last = i === request.messages.length - 1;
      if (last && m.role === 'user' && request.imageUrl) {
        const parts: ChatCompletionContentPart[] = [];
        if (m.content) parts.push({ type: 'text', text: m.content });
        parts.push({ type: 'image_url', image_url: { url: request.imageUrl } });
        messages.push({ role: 'user', content: parts });
      } else messages.push({ role: m.role, content: m.content });
    });
    return {
      model: request.model ?? this.defaultModel,
      messages,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
    };
  }

  /** The compose body plus the loop's exchange (assistant tool calls, one `tool` message per result) and the tools. */
  private agentBody(request: AgentModelRequest) {
    const body = this.body(request);
    for (const turn of request.exchange) {
      if (turn.role === 'assistant') {
        body.messages.push({
          role: 'assistant',
          content: turn.text || null,
          tool_calls: turn.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
          })),
        });
      } else {
        for (const r of turn.results) body.messages.push({ role: 'tool', tool_call_id: r.callId, content: r.content });
      }
    }
    return {
      ...body,
      tools: request.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    };
  }

  async converse(request: AgentModelRequest): Promise<AgentModelResponse> {
    const deadline = new Deadline(this.timeoutMs);
    const signal = AbortSignal.any([deadline.signal, request.signal]);
    try {
      if (!request.stream) {
        const res = await this.client.chat.completions.create({ ...this.agentBody(request), stream: false }, { signal });
        const message = res.choices[0]?.message;
        const toolCalls = (message?.tool_calls ?? []).flatMap((c) =>
          c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
        );
        return { text: message?.content ?? '', toolCalls, usage: openAIUsage(res.usage) };
      }
      const stream = await this.client.chat.completions.create(
        { ...this.agentBody(request), stream: true, stream_options: { include_usage: true } },
        { signal },
      );
      let text = '';
      let usage: TokenUsage | null = null;
      // Tool calls arrive as deltas keyed by `index`: the id and name first, the arguments in pieces (OpenAI, vLLM);
      // some servers (Ollama) send each call whole in one delta.
      const calls: ToolCallRequest[] = [];
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) text += delta.content;
        for (const piece of delta?.tool_calls ?? []) {
          const at = typeof piece.index === 'number' ? piece.index : calls.length;
          const call = (calls[at] ??= { id: '', name: '', arguments: '' });
          if (piece.id) call.id = piece.id;
          if (piece.function?.name && !call.name) call.name = piece.function.name;
          if (piece.function?.arguments) call.arguments += piece.function.arguments;
        }
        if (chunk.usage) usage = openAIUsage(chunk.usage) ?? usage;
      }
      if (deadline.timedOut || request.signal.aborted) throw new Error('stream stalled');
      const toolCalls = calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i + 1}` }));
      return { text, toolCalls, usage };
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut || request.signal.aborted);
    } finally {
      deadline.clear();
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const deadline = new Deadline(this.timeoutMs);
    try {
      const res = await this.client.chat.completions.create({ ...this.body(request), stream: false }, { signal: deadline.signal });
      return { text: res.choices[0]?.message?.content ?? '', usage: openAIUsage(res.usage) };
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut);
    } finally {
      deadline.clear();
    }
  }

  async *stream(request: CompletionRequest): AsyncIterable<CompletionChunk> {
    const deadline = new Deadline(this.timeoutMs);
    let usage: TokenUsage | null = null;
    try {
      const stream = await this.client.chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        { signal: deadline.signal },
      );
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield { type: 'delta', text };
        if (chunk.usage) usage = openAIUsage(chunk.usage) ?? usage;
      }
    } catch (error) {
      throw toProviderError(this.endpoint, error, deadline.timedOut);
    } finally {
      deadline.clear();
    }
    // The SDK ends a stream quietly when it is aborted: a deadline hit mid-stream is still a timeout.
    if (deadline.timedOut) throw toProviderError(this.endpoint, new Error('stream stalled'), true);
    if (usage) yield { type: 'usage', usage };
  }
}
