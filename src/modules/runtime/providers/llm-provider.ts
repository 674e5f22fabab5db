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
  /** The base URL it calls, without credentials or query (shown in traces and the start banner). */
  readonly endpoint: string;
  /** The model asked for when the bundle names none. */
  readonly defaultModel: string;
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

/** A base URL as people may see it: scheme, host, port and path; user, password, query and fragment dropped. */
export function displayEndpoint(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}
