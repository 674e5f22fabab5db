import type { ProviderEndpoint } from './provider-errors.js';
import type { TokenUsage } from '../runtime.types.js';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  model?: string;
  system: string;
  messages: ChatMessage[];
  /** Attached to the last user message (vision input). */
  imageUrl?: string;
  temperature?: number;
  maxOutputTokens?: number;
}

export interface CompletionResult {
  text: string;
  /** What the provider billed; null when it reported no usage (the runtime then counts with the tokenizer). */
  usage: TokenUsage | null;
}

/** A `usage` chunk comes only when the provider reported usage. */
export type CompletionChunk = { type: 'delta'; text: string } | { type: 'usage'; usage: TokenUsage };

/** A function the model may call (agent mode): its name, what it does, and its arguments' JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model asked for; `arguments` is the JSON text it wrote (assembled from stream deltas), unparsed. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

/** What happened after the conversation's last user message: the model's calls and their results, in order. */
export type AgentExchange =
  | { role: 'assistant'; text: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; results: Array<{ callId: string; content: string; isError: boolean }> };

/** One model call of the agent loop: the conversation so far, the tools, and the turn's abort signal. */
export interface AgentModelRequest extends CompletionRequest {
  exchange: AgentExchange[];
  tools: ToolSpec[];
  /** Streamed from the provider (tool-call deltas assembled) or one JSON answer. */
  stream: boolean;
  /** The turn's deadline: aborts the call when the turn runs out of time. */
  signal: AbortSignal;
}

/** The model's answer to one call: text (the reply when there are no calls) and the calls it asks for. */
export interface AgentModelResponse {
  text: string;
  toolCalls: ToolCallRequest[];
  usage: TokenUsage | null;
}

/** A model provider writes the wording of a reply from the material the engine gathered, or runs the agent loop's calls. */
export interface LlmProvider {
  readonly name: 'openai' | 'anthropic';
  /** Where its calls go: named in its errors and in the trace's `writer`. */
  readonly endpoint: ProviderEndpoint;
  /** The model asked for when the bundle names none. */
  readonly defaultModel: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Text deltas as the provider sends them, then one usage chunk when the provider reported usage. */
  stream(request: CompletionRequest): AsyncIterable<CompletionChunk>;
  /** One step of the agent loop, with the tools as functions (docs/agents.md). */
  converse(request: AgentModelRequest): Promise<AgentModelResponse>;
}

/**
 * Usage as the provider reported it, or null when it reported none: no usage object, or one whose counters are
 * all zero (some OpenAI-compatible servers send that placeholder; a real call always reads the prompt).
 */
export function reportedUsage(usage: TokenUsage | null): TokenUsage | null {
  if (!usage) return null;
  const total = usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.reasoning_tokens;
  return total > 0 ? usage : null;
}
