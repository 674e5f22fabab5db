/**
 * Held-out measurement over random page splits. A split puts half of a base's pages (with every question whose
 * thread starts on them: a question, its paraphrases and its follow-ups stay together) and half of its
 * unanswerable questions in a development half; the decline threshold is chosen on the development half only,
 * then every figure is computed on the other half. Mean and spread over the splits are reported.
 */
import { HARD, type Base, type Question, type Thread } from './bases.js';
import { seededRandom } from '../lib/seeded-random.js';

/** One question's outcome, asked with declines off: the ranked documents and the answerability score. */
export interface Scored {
  question: Question;
  /** Documents in the order the answer ranks them (cited first). */
  ranked: string[];
  /** Documents the answer cites (empty for a system that does not cite). */
  cited: string[];
  confidence: number;
}

export interface Figures {
  citationAt1: number;
  hardAt1: number;
  unanswerableDeclined: number;
  answerableWronglyDeclined: number;
  auc: number;
  /** Share of right answers that also cite a document that does not answer the question. */
  padded: number;
}

export const FIGURES: Array<keyof Figures> = [
  'citationAt1',
  'hardAt1',
  'unanswerableDeclined',
  'answerableWronglyDeclined',
  'auc',
  'padded',
];

const pct = (n: number, d: number) => (d ? (100 * n) / d : 0);

/** Figures of outcomes at a decline threshold: a question whose confidence is below it is declined. */
export function figuresAt(outcomes: Scored[], threshold: number): Figures {
  const answerable = outcomes.filter((o) => o.question.expected !== null);
  const unanswerable = outcomes.filter((o) => o.question.expected === null);
  const declined = (o: Scored) => o.confidence < threshold;
  const right = (o: Scored) => !declined(o) && o.question.expected!.includes(o.ranked[0] ?? '');
  const hard = answerable.filter((o) => HARD.has(o.question.kind));
  const rightOnes = answerable.filter(right);
  return {
    citationAt1: pct(rightOnes.length, answerable.length),
    hardAt1: pct(hard.filter(right).length, hard.length),
    unanswerableDeclined: pct(unanswerable.filter(declined).length, unanswerable.length),
    answerableWronglyDeclined: pct(answerable.filter(declined).length, answerable.length),
    auc: auc(
      answerable.map((o) => o.confidence),
      unanswerable.map((o) => o.confidence),
    ),
    padded: pct(rightOnes.filter((o) => o.cited.some((d) => !o.question.expected!.includes(d))).length, rightOnes.length),
  };
}

/** Probability that an answerable question scores above an unanswerable one (ties count half), in %. */
export function auc(positive: number[], negative: number[]): number {
  if (!positive.length || !negative.length) return 0;
  let sum = 0;
  for (const p of positive) for (const n of negative) sum += p > n ? 1 : p === n ? 0.5 : 0;
  return (100 * sum) / (positive.length * negative.length);
}

/**
 * The decline threshold chosen on development outcomes: the one declining the most unanswerable questions while
 * wrongly declining at most `maxLost` % of the answerable ones; among equals, the middle of the interval.
 */
export function calibrate(outcomes: Scored[], maxLost: number): number {
  const values = [...new Set(outcomes.map((o) => o.confidence))].sort((a, b) => a - b);
  let best = { low: 0, high: 0, declined: -1 };
  for (let i = 0; i < values.length; i++) {
    const threshold = (values[i]! + (values[i + 1] ?? values[i]! + 1e-6)) / 2;
    const f = figuresAt(outcomes, threshold);
    if (f.answerableWronglyDeclined > maxLost) break;
    if (f.unanswerableDeclined > best.declined) {
      best = { low: values[i]!, high: values[i + 1] ?? values[i]!, declined: f.unanswerableDeclined };
    } else if (f.unanswerableDeclined === best.declined) best.high = values[i + 1] ?? values[i]!;
  }
  if (best.declined <= 0) return 0;
  return (best.low + best.high) / 2;
}

function shuffled<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Split `seed` of a base: the development threads and the held-out ones. */
export function split(base: Base, seed: number): { dev: Thread[]; test: Thread[] } {
  const next = seededRandom(seed * 7919 + base.name.length);
  const pages = shuffled([...new Set(base.threads.map((t) => t.page).filter((p): p is string => p !== null))], next);
  const devPages = new Set(pages.slice(0, Math.floor(pages.length / 2)));
  const unanswerable = shuffled(
    base.threads.filter((t) => t.page === null),
    next,
  );
  const devUnanswerable = new Set(unanswerable.slice(0, Math.floor(unanswerable.length / 2)));
  const dev = base.threads.filter((t) => (t.page === null ? devUnanswerable.has(t) : devPages.has(t.page)));
  const test = base.threads.filter((t) => !dev.includes(t));
  return { dev, test };
}

export interface Summary {
  mean: Figures;
  min: Figures;
  max: Figures;
  std: Figures;
  threshold: { mean: number; min: number; max: number };
}

/**
 * Figures over `splits` splits: per split, the threshold is calibrated on the development half (or fixed when
 * `fixed` is given, e.g. the engine's shipped default) and the figures computed on the held-out half.
 */
export function heldOut(base: Base, scored: Map<Question, Scored>, splits: number, maxLost: number, fixed?: number): Summary {
  const runs: Figures[] = [];
  const thresholds: number[] = [];
  for (let s = 1; s <= splits; s++) {
    const { dev, test } = split(base, s);
    const of = (threads: Thread[]) => threads.flatMap((t) => t.questions.map((q) => scored.get(q)!));
    const threshold = fixed ?? calibrate(of(dev), maxLost);
    thresholds.push(threshold);
    runs.push(figuresAt(of(test), threshold));
  }
  const reduce = (f: (values: number[]) => number) =>
    Object.fromEntries(FIGURES.map((k) => [k, f(runs.map((r) => r[k]))])) as unknown as Figures;
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    mean: reduce(mean),
    min: reduce((v) => Math.min(...v)),
    max: reduce((v) => Math.max(...v)),
    std: reduce((v) => Math.sqrt(mean(v.map((x) => (x - mean(v)) ** 2)))),
    threshold: { mean: mean(thresholds), min: Math.min(...thresholds), max: Math.max(...thresholds) },
  };
}
