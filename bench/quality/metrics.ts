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
 * most `maxWrong` % of its answerable ones. Among the thresholds that do (ties), those wrongly declining the
 * fewest answerable questions are kept, and the threshold is the middle of that interval: the widest margin on
 * both sides (the lowest one keeps the most answers on the calibration fold but sits right on its highest
 * declined unanswerable question, which held-out questions then fall just above).
 */
export function calibrate(outcomes: Outcome[], maxWrong = 2): number {
  const candidates = [...new Set(outcomes.map((o) => o.confidence))].sort((a, b) => a - b);
  let best = { low: 0, high: 0, declined: -1, wrong: 0 };
  // A threshold just above each confidence declines that question and every one below it.
  for (let i = 0; i < candidates.length; i++) {
    const low = candidates[i]!;
    const at = figures(outcomes.map((o) => ({ ...o, declined: o.confidence <= low })));
    if (at.answerableWronglyDeclined > maxWrong) break;
    const high = candidates[i + 1] ?? 1;
    const better =
      at.unanswerableDeclined > best.declined || (at.unanswerableDeclined === best.declined && at.answerableWronglyDeclined < best.wrong);
    if (better) best = { low, high, declined: at.unanswerableDeclined, wrong: at.answerableWronglyDeclined };
    else if (at.unanswerableDeclined === best.declined && at.answerableWronglyDeclined === best.wrong) best.high = high;
  }
  if (best.declined <= 0) return 0;
  return Math.round(((best.low + best.high) / 2) * 1000) / 1000;
}
