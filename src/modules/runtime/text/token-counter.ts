import { countTokens } from 'gpt-tokenizer';

/**
 * Longest run without whitespace handed to the BPE encoder at once. Its merge loop is quadratic in the length
 * of one pre-token (a 32,000-letter word took ~0.5 s), so longer runs are counted in pieces of this size: the
 * count of such a run may differ by a token per piece from the joined count (0.2 % on a 16,384-letter word),
 * and the work stays linear.
 */
export const BPE_RUN_MAX = 256;

/**
 * Real BPE token counts (o200k_base, gpt-tokenizer) for turns whose provider reports none (builtin, an
 * OpenAI-compatible server that sends no usage, or replies the engine wrote itself such as a guardrail block).
 * Cheap: about 50 µs per kilobyte.
 */
export function countTextTokens(text: string | undefined): number {
  if (!text) return 0;
  let total = 0;
  for (const piece of bpePieces(text)) total += countTokens(piece);
  return total;
}

/** The text cut so that no piece holds a run of more than BPE_RUN_MAX characters of one kind (word or whitespace). */
export function bpePieces(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const m of text.matchAll(/\S+|\s+/g)) {
    const run = m[0];
    if (run.length <= BPE_RUN_MAX) continue;
    if (m.index > from) pieces.push(text.slice(from, m.index));
    for (let i = 0; i < run.length;) {
      let end = Math.min(i + BPE_RUN_MAX, run.length);
      if (end < run.length && isHighSurrogate(run.charCodeAt(end - 1))) end -= 1; // keep surrogate pairs whole
      pieces.push(run.slice(i, end));
      i = end;
    }
    from = m.index + run.length;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
