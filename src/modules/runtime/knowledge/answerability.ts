import type { V2AnswerableCheck } from '../trace.types.js';
import type { SearchResult } from './retriever.js';

/**
 * Knowing when not to answer. The answerability of a question is the coverage of its best passage: the share of
 * the question's content (IDF-weighted; words of the question frame count little, names the knowledge base has
 * never seen count most) that the passage or its section's headings hold, synonyms and associated terms counting
 * half. Below the revision's `knowledge_settings.min_confidence` the engine declines instead of citing a passage
 * that does not answer.
 */

/**
 * Calibrated on the tuning split of bench/quality (docs/engines.md, `node dist/bench/quality/evaluate.js
 * --calibrate-default`): split 1's development halves of the four small help-centre bases pooled, the threshold
 * declining the most unanswerable questions while wrongly declining at most 5 % of the answerable ones. The
 * earlier default, 0.2, wrongly declined 7.8 % of them there.
 */
export const DEFAULT_MIN_CONFIDENCE = 0.16;

export interface Answerability {
  confidence: number;
  threshold: number;
  /** Best passage's score over the next document's best (1 when it stands alone). */
  margin: number;
  /** Question words the best passage does not cover. */
  uncovered: string[];
  answerable: boolean;
}

export function answerability(result: SearchResult, documentOf: (passage: number) => string, threshold: number): Answerability {
  const best = result.passages[0];
  if (!best) {
    return {
      confidence: 0,
      threshold,
      margin: 0,
      uncovered: result.terms.filter((t) => t.kind === 'question').map((t) => t.source),
      answerable: false,
    };
  }
  const bestDocument = documentOf(best.index);
  const next = result.passages.find((p) => documentOf(p.index) !== bestDocument);
  return {
    confidence: round(best.coverage),
    threshold,
    margin: round(next ? best.score / next.score : 1),
    uncovered: best.uncovered,
    answerable: best.coverage >= threshold,
  };
}

/** The `answerable` entry of a v2 trace's checks: the decision, its scores and the words nothing covered. */
export function answerableCheck(a: Answerability, searched: boolean): V2AnswerableCheck {
  return {
    name: 'answerable',
    passed: !searched || a.answerable,
    detail: !searched
      ? 'no knowledge was searched'
      : a.answerable
        ? `the best passage covers ${pct(a.confidence)} of the question (threshold ${pct(a.threshold)})`
        : `the best passage covers ${pct(a.confidence)} of the question, below the threshold of ${pct(a.threshold)}${a.uncovered.length ? `; not covered: ${a.uncovered.join(', ')}` : ''}`,
    confidence: a.confidence,
    threshold: a.threshold,
    margin: a.margin,
    uncovered_words: a.uncovered,
  };
}

/** The sentence of a v2 trace's narrative that explains a decline. */
export function declineNarrative(a: Answerability): string {
  return (
    `The best passage covered only ${pct(a.confidence)} of the question, below the ${pct(a.threshold)} this agent requires` +
    `${a.uncovered.length ? ` (nothing in the knowledge base matched ${a.uncovered.map((w) => `"${w}"`).join(', ')})` : ''}, ` +
    'so I said I could not find it and suggested the nearest topics instead of citing a passage that does not answer.'
  );
}

const pct = (n: number) => `${Math.round(n * 100)} %`;
const round = (n: number) => Math.round(n * 1000) / 1000;
