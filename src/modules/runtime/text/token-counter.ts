import { countTokens } from 'gpt-tokenizer';

/**
 * Real BPE token counts (o200k_base, gpt-tokenizer) for turns whose provider reports none (builtin, or
 * replies the engine wrote itself such as a guardrail block). Cheap: about 50 µs per kilobyte.
 */
export function countTextTokens(text: string | undefined): number {
  if (!text) return 0;
  return countTokens(text);
}
