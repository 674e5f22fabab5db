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

/** A model provider writes the wording of a reply from the material the engine gathered. */
export interface LlmProvider {
  readonly name: 'openai' | 'anthropic';
  /** Where its calls go: named in its errors and in the trace's `writer`. */
  readonly endpoint: ProviderEndpoint;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Text deltas as the provider sends them, then one usage chunk when the provider reported usage. */
  stream(request: CompletionRequest): AsyncIterable<CompletionChunk>;
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
