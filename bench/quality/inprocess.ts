/**
 * The same measurement as bench/quality/run.ts, in process: the engine's own `prepareV2` index and `planV2` turn
 * (the code the service runs for a v2 agent, builtin provider), the same corpus, questions, folds, `calibrate`
 * and `figures`. It takes seconds instead of a service start-up and 550 HTTP turns, so engine constants can be
 * iterated on quickly; `npm run quality` (the live service) stays the reported figure.
 *
 *   npm run -s build && node dist/bench/quality/inprocess.js [--misses] [--json]
 *
 * `--misses` lists, per fold, the unanswerable questions answered and the answerable ones declined or missed,
 * with their confidence and uncovered words (for diagnosis; the figures do not depend on it).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { planV2, prepareV2, V2_LATEST } from '../../src/modules/runtime/engines/v2-engine.js';
import type { V2Trace } from '../../src/modules/runtime/trace.types.js';
import { plainBm25 } from './baseline.js';
import { loadCorpus } from './corpus.js';
import { calibrate, figures, type Figures, type Outcome } from './metrics.js';
import { loadQuestions, type Question } from './questions.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, misses: { type: 'boolean', default: false } },
});
const log = (message: string) => process.stderr.write(`[quality:inprocess] ${message}\n`);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Asked extends Outcome {
  uncovered: string[];
}

/** Asks each question as a one-turn thread of a v2 agent holding `bundle`, reading the trace as run.ts does. */
export function askInProcess(bundle: Bundle, questions: Question[]): Asked[] {
  const ix = prepareV2(bundle);
  return questions.map((question) => {
    const plan = planV2(bundle, ix, { text: question.text, agentVariables: {}, history: [] }, V2_LATEST);
    const trace = plan.finish(plan.draft, 'builtin') as V2Trace;
    const check = trace.checks.find((c) => c.name === 'answerable') as
      { passed: boolean; confidence?: number; uncovered_words?: string[] } | undefined;
    const cited = [...new Set([...trace.citations_used, ...trace.sources_read].map((c) => c.document_id))];
    return {
      question,
      cited,
      confidence: check?.confidence ?? 0,
      declined: check?.passed === false,
      uncovered: check?.uncovered_words ?? [],
    };
  });
}

const row = (name: string, f: Figures) =>
  `| ${name} | ${f.citationAt1.toFixed(1)} | ${f.citationAt3.toFixed(1)} | ${f.mrr.toFixed(3)} | ${f.paraphraseAt1.toFixed(1)} | ${f.unanswerableDeclined.toFixed(0)} | ${f.answerableWronglyDeclined.toFixed(1)} |`;

function main(): void {
  const corpus = loadCorpus(log);
  const questions = loadQuestions(ROOT);
  const started = Date.now();
  const bundle = (minConfidence: number): Bundle => ({
    name: 'PostgreSQL manual',
    knowledge: corpus.documents,
    knowledge_settings: { min_confidence: minConfidence },
  });
  const open = askInProcess(bundle(0), questions);
  const baseline = plainBm25(corpus.documents);
  const report: Array<{ fold: string; threshold: number; engine: Figures; bm25: Figures }> = [];
  const lines = [
    '| held-out fold · row | citation@1 % | citation@3 % | MRR | paraphrase citation@1 % | unanswerable declined % | answerable wrongly declined % |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const misses: string[] = [];
  for (const fold of ['A', 'B'] as const) {
    const threshold = calibrate(open.filter((o) => o.question.fold !== fold));
    const held = questions.filter((q) => q.fold === fold);
    const asked = askInProcess(bundle(threshold), held);
    const engine = figures(asked);
    const bm25 = figures(held.map((question) => ({ question, cited: baseline(question.text), confidence: 1, declined: false })));
    report.push({ fold, threshold, engine, bm25 });
    lines.push(row(`${fold} · plain BM25`, bm25));
    lines.push(row(`${fold} · builtin v2 (min_confidence ${threshold} from fold ${fold === 'A' ? 'B' : 'A'})`, engine));
    for (const o of asked) {
      const q = o.question;
      const wrong = q.expected === null ? !o.declined : o.declined || o.cited[0] !== q.expected;
      if (!wrong) continue;
      const what = q.expected === null ? 'ANSWERED' : o.declined ? 'DECLINED' : `miss(${o.cited.indexOf(q.expected) + 1})`;
      misses.push(`${fold} ${q.kind[0]} ${what} conf ${o.confidence.toFixed(3)} [${o.uncovered.join(',')}] ${q.text}`);
    }
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ package: corpus.packageVersion, report }, null, 2)}\n`);
    return;
  }
  if (values.misses) process.stdout.write(`${misses.join('\n')}\n\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
  log(`${questions.length} questions × 2 in ${Date.now() - started} ms`);
}

main();
