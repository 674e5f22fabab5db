/**
 * Answer quality of the grounded (v2) engine on held-out questions.
 *
 *   npm run quality                       (builds, then node dist/bench/quality/evaluate.js)
 *   node dist/bench/quality/evaluate.js [--splits 20] [--base bikes] [--no-manual] [--misses SEED] [--json]
 *   node dist/bench/quality/evaluate.js --final      (the final set: run once, see docs/engines.md)
 *
 * The engine's own `prepareV2` index and `planV2` turn (the code the service runs for a v2 agent with the builtin
 * provider), asked thread by thread with the thread's history, as the service passes it. Every question is asked
 * once with declines off, which gives its ranking and its answerability score; then, for each of `--splits`
 * random page splits (bench/quality/heldout.ts), the decline threshold is chosen on the development half and the
 * figures are computed on the held-out half. Rows: the engine with the calibrated threshold, the engine with its
 * shipped default threshold (what a customer gets without calibrating), and plain stemmed BM25 (its top score as
 * the answerability score, calibrated the same way) in the same run.
 *
 * `--scores` lists every question's answerability score and top document. `--misses SEED` lists the held-out half of split SEED's failures (diagnosis; development work reads the
 * development half of split 1 only: `--misses 1 --dev`).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import type { Bundle, KnowledgeDocument } from '../../src/modules/bundles/bundle.types.js';
import { planV2, prepareV2, V2_LATEST } from '../../src/modules/runtime/engines/v2-engine.js';
import { DEFAULT_MIN_CONFIDENCE } from '../../src/modules/runtime/knowledge/answerability.js';
import { isStop, stemWord } from '../../src/modules/runtime/knowledge/analyzer.js';
import type { V2Trace } from '../../src/modules/runtime/trace.types.js';
import { FINAL_BASE, hasBase, loadManual, loadSmallBase, SMALL_BASES, type Base, type Question } from './bases.js';
import { calibrate, figuresAt, heldOut, split, type Scored, type Summary } from './heldout.js';

const { values } = parseArgs({
  options: {
    splits: { type: 'string', default: '20' },
    base: { type: 'string', multiple: true },
    'no-manual': { type: 'boolean', default: false },
    final: { type: 'boolean', default: false },
    misses: { type: 'string' },
    dev: { type: 'boolean', default: false },
    scores: { type: 'boolean', default: false },
    'calibrate-default': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const log = (message: string) => process.stderr.write(`[quality] ${message}\n`);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Answerable questions wrongly declined that a calibration may accept: the bound per kind of set. */
const MAX_LOST = { small: 5, manual: 3 };

/** Asks every thread of a base with declines off; follow-ups carry the thread's history as the service passes it. */
export function askEngine(base: Base): Map<Question, Scored> {
  const bundle: Bundle = { name: base.name, knowledge: base.documents, knowledge_settings: { min_confidence: 0 } };
  const ix = prepareV2(bundle);
  const out = new Map<Question, Scored>();
  for (const thread of base.threads) {
    const history: Array<{ role: 'user' | 'agent'; text: string }> = [];
    for (const question of thread.questions) {
      const plan = planV2(bundle, ix, { text: question.text, agentVariables: {}, history: [...history] }, V2_LATEST);
      const trace = plan.finish(plan.draft, 'builtin') as V2Trace;
      const check = trace.checks.find((c) => c.name === 'answerable') as { confidence?: number } | undefined;
      const cited = [...new Set(trace.citations_used.map((c) => c.document_id))];
      const ranked = [...new Set([...cited, ...trace.sources_read.map((c) => c.document_id)])];
      out.set(question, { question, ranked, cited, confidence: check?.confidence ?? 0 });
      history.push({ role: 'user', text: question.text }, { role: 'agent', text: plan.draft });
    }
  }
  return out;
}

/** Plain stemmed BM25 (minisearch over title and text, the service's stop words, Porter stems), question alone. */
export function askBm25(base: Base): Map<Question, Scored> {
  const index = new MiniSearch<KnowledgeDocument>({
    fields: ['title', 'text'],
    processTerm: (term) => {
      const w = term.toLowerCase();
      return isStop(w) ? null : stemWord(w);
    },
  });
  index.addAll(base.documents);
  const out = new Map<Question, Scored>();
  for (const thread of base.threads) {
    for (const question of thread.questions) {
      const hits = index.search(question.text);
      out.set(question, { question, ranked: hits.map((h) => String(h.id)), cited: [], confidence: hits[0]?.score ?? 0 });
    }
  }
  return out;
}

const fmt = (s: Summary, k: keyof Summary['mean']) =>
  `${s.mean[k].toFixed(1)} (${s.min[k].toFixed(0)}–${s.max[k].toFixed(0)}, ±${s.std[k].toFixed(1)})`;

function rows(name: string, base: Base, splits: number, maxLost: number): { lines: string[]; json: object } {
  const engine = askEngine(base);
  const bm25 = askBm25(base);
  const results = {
    'v2 engine, threshold calibrated on the development half': heldOut(base, engine, splits, maxLost),
    [`v2 engine, shipped default threshold ${DEFAULT_MIN_CONFIDENCE}`]: heldOut(base, engine, splits, maxLost, DEFAULT_MIN_CONFIDENCE),
    'plain stemmed BM25, threshold calibrated on the development half': heldOut(base, bm25, splits, maxLost),
  };
  const lines = Object.entries(results).map(
    ([row, s]) =>
      `| ${name} | ${row} | ${fmt(s, 'citationAt1')} | ${fmt(s, 'hardAt1')} | ${fmt(s, 'unanswerableDeclined')} | ${fmt(s, 'answerableWronglyDeclined')} | ${fmt(s, 'auc')} | ${fmt(s, 'padded')} |`,
  );
  if (values.misses) lines.push(...misses(base, engine, Number(values.misses), maxLost));
  if (values.scores) {
    // Every question's answerability score and top document, lowest first (diagnosis of the score's separation).
    for (const o of [...engine.values()].sort((a, b) => a.confidence - b.confidence)) {
      const mark = o.question.expected === null ? 'U' : o.question.expected.includes(o.ranked[0] ?? '') ? '+' : 'x';
      lines.push(`  ${mark} ${o.confidence.toFixed(3)} ${o.ranked[0] ?? '-'} ${o.question.kind}: ${o.question.text}`);
    }
  }
  return { lines, json: { base: name, results } };
}

/** The failures of one split's held-out half (or development half with --dev), at that split's threshold. */
function misses(base: Base, engine: Map<Question, Scored>, seed: number, maxLost: number): string[] {
  const { dev, test } = split(base, seed);
  const of = (threads: typeof dev) => threads.flatMap((t) => t.questions.map((q) => engine.get(q)!));
  const threshold = calibrate(of(dev), maxLost);
  const shown = of(values.dev ? dev : test);
  const f = figuresAt(shown, threshold);
  const out = [
    `  ${base.name} split ${seed} ${values.dev ? 'development' : 'held-out'} half, threshold ${threshold.toFixed(3)}: ` +
      `citation@1 ${f.citationAt1.toFixed(1)} %, hard ${f.hardAt1.toFixed(1)} %, unanswerable declined ${f.unanswerableDeclined.toFixed(1)} %, ` +
      `answerable wrongly declined ${f.answerableWronglyDeclined.toFixed(1)} %, AUC ${f.auc.toFixed(1)} %, padded ${f.padded.toFixed(1)} %`,
  ];
  for (const o of shown) {
    const q = o.question;
    const declined = o.confidence < threshold;
    const wrong = q.expected === null ? !declined : declined || !q.expected.includes(o.ranked[0] ?? '');
    if (!wrong) continue;
    const what = q.expected === null ? 'ANSWERED' : declined ? 'DECLINED' : `got ${o.ranked[0] ?? '-'}`;
    out.push(`  ${q.kind} ${what} conf ${o.confidence.toFixed(3)} want ${q.expected?.join('|') ?? '-'}: ${q.text}`);
  }
  return out;
}

const HEADER = [
  '| base | row | citation@1 % | follow-ups and similar-page @1 % | unanswerable declined % | answerable wrongly declined % | answerability AUC % | right answers padded % |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

function main(): void {
  const splits = Math.max(1, Number(values.splits));
  const started = Date.now();
  const out: string[] = [];
  const json: object[] = [];
  if (values.final) {
    // The final set has no development half: it is asked once, at the shipped default threshold.
    const base = loadSmallBase(ROOT, FINAL_BASE);
    const engine = askEngine(base);
    const bm25 = askBm25(base);
    const all = [...engine.values()];
    const f = figuresAt(all, DEFAULT_MIN_CONFIDENCE);
    const b = figuresAt([...bm25.values()], calibrate([...bm25.values()], MAX_LOST.small));
    out.push(
      `final set (${base.description}): ${base.documents.length} pages, ${all.length} questions; asked once`,
      '',
      '| row | citation@1 % | follow-ups and similar-page @1 % | unanswerable declined % | answerable wrongly declined % | AUC % | padded % |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      `| v2 engine, shipped default threshold ${DEFAULT_MIN_CONFIDENCE} | ${f.citationAt1.toFixed(1)} | ${f.hardAt1.toFixed(1)} | ${f.unanswerableDeclined.toFixed(1)} | ${f.answerableWronglyDeclined.toFixed(1)} | ${f.auc.toFixed(1)} | ${f.padded.toFixed(1)} |`,
      `| plain stemmed BM25 (threshold fitted on this set itself: optimistic) | ${b.citationAt1.toFixed(1)} | ${b.hardAt1.toFixed(1)} | ${b.unanswerableDeclined.toFixed(1)} | ${b.answerableWronglyDeclined.toFixed(1)} | ${b.auc.toFixed(1)} | - |`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    return;
  }
  const names = values.base?.length ? values.base : [...SMALL_BASES];
  if (values['calibrate-default']) {
    // The shipped default threshold is chosen on the tuning split only: split 1's development halves of the small
    // bases, pooled (one threshold for every knowledge base), at most 5 % of their answerable questions declined.
    const pooled = names.flatMap((name) => {
      const base = loadSmallBase(ROOT, name);
      const engine = askEngine(base);
      return split(base, 1).dev.flatMap((t) => t.questions.map((q) => engine.get(q)!));
    });
    const threshold = calibrate(pooled, MAX_LOST.small);
    const f = figuresAt(pooled, threshold);
    process.stdout.write(
      `tuning split (split 1 development halves of ${names.join(', ')}, ${pooled.length} questions): threshold ${threshold.toFixed(3)}, ` +
        `unanswerable declined ${f.unanswerableDeclined.toFixed(1)} %, answerable wrongly declined ${f.answerableWronglyDeclined.toFixed(1)} %, ` +
        `citation@1 ${f.citationAt1.toFixed(1)} %, at the current default ${DEFAULT_MIN_CONFIDENCE}: ` +
        `${figuresAt(pooled, DEFAULT_MIN_CONFIDENCE).unanswerableDeclined.toFixed(1)} % declined, ${figuresAt(pooled, DEFAULT_MIN_CONFIDENCE).answerableWronglyDeclined.toFixed(1)} % lost, citation@1 ${figuresAt(pooled, DEFAULT_MIN_CONFIDENCE).citationAt1.toFixed(1)} %\n`,
    );
    return;
  }
  out.push(`${splits} random page splits per base; mean (min–max, ±std) of the held-out halves`, '', ...HEADER);
  for (const name of names) {
    if (name === 'manual') continue;
    if (!hasBase(ROOT, name)) throw new Error(`no base ${name}`);
    const base = loadSmallBase(ROOT, name);
    const r = rows(
      `${name} (${base.documents.length} pages, ${base.threads.flatMap((t) => t.questions).length} q)`,
      base,
      splits,
      MAX_LOST.small,
    );
    out.push(...r.lines);
    json.push(r.json);
  }
  if (!values['no-manual'] && (!values.base?.length || values.base.includes('manual'))) {
    const manual = loadManual(ROOT, log);
    const r = rows(`manual (${manual.documents.length} sections, ${manual.threads.length} q)`, manual, splits, MAX_LOST.manual);
    out.push(...r.lines);
    json.push(r.json);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else process.stdout.write(`${out.join('\n')}\n`);
  log(`done in ${Date.now() - started} ms`);
}

main();
