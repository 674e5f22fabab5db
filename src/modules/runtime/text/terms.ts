import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';
import { leadingChars } from '../../../common/validation/char-length.js';

/**
 * Text helpers shared by both engines: one tokenizer for indexing and querying, so that catalog search,
 * passage retrieval and intent recognition agree on what a "term" is.
 */

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers ' +
    'him his how i if in into is it its itself just me more most my no nor not of off on once only or other our ours out ' +
    'over own same she should so some such than that the their theirs them then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'yourself am any about also all again against get got give show tell please want need like looking find know ' +
    "us let lets let's many much i'm im i'd id i've ive you're youre there's whats what's"
  ).split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Distinct words of a message that reach a search index. Each costs one exact, prefix and fuzzy walk of the
 * index, so a message of thousands of words searches its first ones only.
 */
export const MAX_QUERY_TERMS = 32;

/**
 * A word as search, fuzzy matching and intent recognition see it: its first searchTokenMaxChars characters
 * (never half of a surrogate pair). Indexing and querying both use it, so long words still meet; and the
 * fuzzy matcher's work, quadratic in a word's length, stays small whatever a message holds.
 */
export function boundedWord(word: string): string {
  return leadingChars(word, INPUT_LIMITS.searchTokenMaxChars);
}

/** Lower-cased words and numbers, in order (punctuation dropped, accents kept), each bounded by `boundedWord`. */
export function words(text: string): string[] {
  return tokenize(text.toLowerCase());
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * A light, deterministic English stemmer (plural and common verb endings). Good enough to let
 * "shoes"/"shoe", "running"/"run" and "returned"/"return" meet, cheap enough for the hot path.
 */
export function stem(word: string): string {
  const out = stemSuffix(word);
  // hike/hiking, size/sizing, store/storing: drop a final silent e so both sides meet
  return out.length > 3 && out.endsWith('e') && !out.endsWith('ee') ? out.slice(0, -1) : out;
}

function stemSuffix(word: string): string {
  let w = word.replace(/['’]s$/, '');
  if (w.length <= 3 || /^\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) {
    w = w.slice(0, -3);
    if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1); // running → run
    return w;
  }
  if (w.endsWith('ed') && w.length > 4) {
    w = w.slice(0, -2);
    if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('er') && w.length > 4) {
    w = w.slice(0, -2); // hiker → hik, runner → run (meets hiking, running)
    if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('es') && /(?:ch|sh|x|z|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

/** Index/query term: stemmed, stopwords removed (returns null for a stopword, as minisearch's processTerm expects). */
export function processTerm(term: string): string | null {
  const w = term.toLowerCase();
  if (STOPWORDS.has(w)) return null;
  return stem(w);
}

/** Content terms of a text: words minus stopwords, stemmed. */
export function keywords(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * Content words with their stems, one per distinct stem, in order, at most MAX_QUERY_TERMS. Search queries are
 * built from the words (minisearch stems them itself; stemming twice is not idempotent: "notes" → "note" → "not").
 */
export function contentTerms(text: string): Array<{ word: string; stem: string }> {
  const seen = new Set<string>();
  const out: Array<{ word: string; stem: string }> = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push({ word: w, stem: s });
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

/** minisearch tokenizer matching `words()` (same bounded words, case kept: processTerm lower-cases). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD)) out.push(boundedWord(word));
  return out;
}

/** Terminal punctuation and closing quotes, when whitespace and a capital, digit or opening quote follow. */
const SENTENCE_END = /[.!?]["'”)\]]*(?=\s+["'“([]?[\p{Lu}\p{N}])/gu;

/**
 * Sentences of a paragraph (keeps the terminal punctuation). A boundary is terminal punctuation followed by
 * whitespace and a capital, digit or opening quote, so "$6.50" and "e.g. more" stay whole.
 */
export function sentences(text: string): string[] {
  // Matching forward from each terminal mark keeps this linear: a lookbehind tried at every position would
  // rescan a run of quotes or brackets each time (quadratic in the run, and knowledge texts are tenant input).
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    out.push(text.slice(start, end));
    start = end;
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/**
 * Splits a reply into token-sized pieces for streaming (a word with its leading space, or one punctuation
 * mark); the pieces concatenate to exactly the input.
 */
export function tokenPieces(text: string): string[] {
  return text.match(/\s*[\p{L}\p{N}]+|\s*[^\s\p{L}\p{N}]|\s+/gu) ?? [];
}
