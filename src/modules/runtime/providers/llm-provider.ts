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
  usage: TokenUsage;
}

export type CompletionChunk = { type: 'delta'; text: string } | { type: 'usage'; usage: TokenUsage };

/** A model provider writes the wording of a reply from the material the engine gathered. */
export interface LlmProvider {
  readonly name: 'openai' | 'anthropic';
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Text deltas as the provider sends them, then one usage chunk. */
  stream(request: CompletionRequest): AsyncIterable<CompletionChunk>;
}

export const ZERO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
