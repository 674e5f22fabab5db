import type { Question } from './questions.js';

/** One question's outcome: the cited documents in order, the engine's confidence and whether it declined. */
export interface Outcome {
  question: Question;
  cited: string[];
  confidence: number;
  declined: boolean;
}

export interface Figures {
  answerable: number;
  citationAt1: number;
  citationAt3: number;
  mrr: number;
  paraphrases: number;
  paraphraseAt1: number;
  unanswerable: number;
  unanswerableDeclined: number;
  answerableWronglyDeclined: number;
}

const pct = (n: number, d: number) => (d ? (100 * n) / d : 0);

/** Citation@k and MRR count a declined answerable question as a miss. */
export function figures(outcomes: Outcome[]): Figures {
  const answerable = outcomes.filter((o) => o.question.expected !== null);
  const paraphrases = answerable.filter((o) => o.question.kind === 'paraphrase');
  const unanswerable = outcomes.filter((o) => o.question.expected === null);
  const rank = (o: Outcome) => (o.declined ? 0 : o.cited.indexOf(o.question.expected!) + 1);
  const at = (list: Outcome[], k: number) => pct(list.filter((o) => rank(o) >= 1 && rank(o) <= k).length, list.length);
  return {
    answerable: answerable.length,
    citationAt1: at(answerable, 1),
    citationAt3: at(answerable, 3),
    mrr: answerable.length ? answerable.reduce((s, o) => s + (rank(o) ? 1 / rank(o) : 0), 0) / answerable.length : 0,
    paraphrases: paraphrases.length,
    paraphraseAt1: at(paraphrases, 1),
    unanswerable: unanswerable.length,
    unanswerableDeclined: pct(unanswerable.filter((o) => o.declined).length, unanswerable.length),
    answerableWronglyDeclined: pct(answerable.filter((o) => o.declined).length, answerable.length),
  };
}

/**
 * The confidence threshold that declines the most unanswerable questions of a fold while wrongly declining at
 * most `maxWrong` % of its answerable ones (ties: the lowest such threshold, the most answers kept).
 */
export function calibrate(outcomes: Outcome[], maxWrong = 2): number {
  const candidates = [...new Set(outcomes.map((o) => o.confidence))].sort((a, b) => a - b);
  let best = { threshold: 0, declined: -1 };
  for (const c of candidates) {
    const threshold = Math.ceil(c * 1000 + 1e-6) / 1000;
    const at = figures(outcomes.map((o) => ({ ...o, declined: o.confidence < threshold })));
    if (at.answerableWronglyDeclined > maxWrong) break;
    if (at.unanswerableDeclined > best.declined) best = { threshold, declined: at.unanswerableDeclined };
  }
  return best.threshold;
}
