/**
 * Retrieval quality of the v2 engine on a public manual, measured through the public API of the built service.
 *
 *   npm run quality            (builds, then node dist/bench/quality/run.js [--json])
 *
 * Stands up the service as bench/ does (production build, its own database), loads part III of the PostgreSQL 15
 * manual (bench/quality/corpus.ts) into a v2 agent by push, publishes, and asks every question of
 * bench/quality/questions.txt as a support user would, with the trace. Then, per fold: the decline threshold is
 * calibrated on the other fold, pushed to a fresh agent as `knowledge_settings.min_confidence`, and the fold's
 * questions are asked again — only held-out figures are reported. Plain BM25 (minisearch defaults over whole
 * documents) is computed in the same run as the reference row.
 */
import { parseArgs } from 'node:util';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { ROOT, startEnvironment } from '../lib/environment.js';
import { machineInfo } from '../lib/proc.js';
import { Cleanup } from '../lib/processes.js';
import { accessToken, inParallel, publishableKey } from '../lib/seed.js';
import type { BenchContext } from '../scenario.js';
import { plainBm25 } from './baseline.js';
import { loadCorpus } from './corpus.js';
import { calibrate, figures, type Figures, type Outcome } from './metrics.js';
import { loadQuestions, type Question } from './questions.js';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const log = (message: string) => process.stderr.write(`[quality] ${message}\n`);

interface V2TraceView {
  citations_used: Array<{ document_id: string }>;
  sources_read: Array<{ document_id: string }>;
  checks: Array<{ name: string; passed: boolean; confidence?: number }>;
}

/** A live v2 agent holding `bundle`, and a messaging header for it. */
async function liveAgent(ctx: BenchContext, projectId: string, bundle: Bundle): Promise<Record<string, string>> {
  const h = { headers: ctx.org.headers };
  const agent = await ctx.request<{ id: string }>('POST', `/management/v1/projects/${projectId}/agents`, {
    ...h,
    body: { name: `quality-${Date.now()}`, runtime: 'v2' },
  });
  const version = await ctx.request<{ id: string }>('POST', `/management/v1/agents/${agent.body.id}/versions`, {
    ...h,
    body: { source: 'empty' },
  });
  const base = `/management/v1/agents/${agent.body.id}/versions/${version.body.id}`;
  await ctx.request('POST', `${base}/push`, { ...h, body: { bundle } });
  await ctx.request('POST', `${base}/publish`, h);
  return { authorization: `Bearer ${await accessToken(ctx, await publishableKey(ctx, agent.body.id))}` };
}

/** Asks each question on a new thread; the outcome reads the cited and considered documents from the trace. */
async function ask(ctx: BenchContext, headers: Record<string, string>, questions: Question[]): Promise<Outcome[]> {
  const out: Outcome[] = new Array(questions.length);
  await inParallel(questions.length, 4, async (i) => {
    const question = questions[i]!;
    const { body } = await ctx.request<{ message: { trace_info: V2TraceView } }>('POST', '/messaging/v1/messages', {
      headers,
      body: { text: question.text, user_id: 'quality', include_trace: true },
    });
    const trace = body.message.trace_info;
    const check = trace.checks.find((c) => c.name === 'answerable');
    // Ranking: the cited documents in marker order, then the other documents the engine considered, in rank order.
    const cited = [...new Set([...trace.citations_used, ...trace.sources_read].map((c) => c.document_id))];
    out[i] = { question, cited, confidence: check?.confidence ?? 0, declined: check?.passed === false };
  });
  return out;
}

const row = (name: string, f: Figures) =>
  `| ${name} | ${f.citationAt1.toFixed(1)} | ${f.citationAt3.toFixed(1)} | ${f.mrr.toFixed(3)} | ${f.paraphraseAt1.toFixed(1)} | ${f.unanswerableDeclined.toFixed(0)} | ${f.answerableWronglyDeclined.toFixed(1)} |`;

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  process.once('SIGINT', () => void cleanup.runAll().then(() => process.exit(130)));
  try {
    const corpus = loadCorpus(log);
    const questions = loadQuestions(ROOT);
    const known = new Set(corpus.documents.map((d) => d.id));
    const missing = questions.filter((q) => q.expected && !known.has(q.expected));
    if (missing.length) throw new Error(`questions name sections this package version lacks: ${missing.map((q) => q.expected).join(', ')}`);
    log(`${corpus.documents.length} sections from ${corpus.packageVersion}; ${questions.length} questions`);

    const env = await startEnvironment(cleanup, { connections: 4 });
    const { ctx } = env;
    const project = await ctx.request<{ id: string }>('POST', '/management/v1/projects', {
      headers: ctx.org.headers,
      body: { name: 'quality' },
    });
    const bundle = (minConfidence: number): Bundle => ({
      name: 'PostgreSQL manual',
      knowledge: corpus.documents,
      knowledge_settings: { min_confidence: minConfidence },
    });

    // Scores of every question with declines off: the calibration data.
    log('asking every question with declines off (calibration)');
    const open = await ask(ctx, await liveAgent(ctx, project.body.id, bundle(0)), questions);
    const baseline = plainBm25(corpus.documents);
    const report: Array<{ fold: string; threshold: number; engine: Figures; bm25: Figures }> = [];
    for (const fold of ['A', 'B'] as const) {
      const threshold = calibrate(open.filter((o) => o.question.fold !== fold));
      const held = questions.filter((q) => q.fold === fold);
      log(`fold ${fold}: min_confidence ${threshold} calibrated on the other fold; asking its ${held.length} questions`);
      const engine = figures(await ask(ctx, await liveAgent(ctx, project.body.id, bundle(threshold)), held));
      const bm25 = figures(held.map((question) => ({ question, cited: baseline(question.text), confidence: 1, declined: false })));
      report.push({ fold, threshold, engine, bm25 });
    }
    const machine = machineInfo();
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify({ package: corpus.packageVersion, documents: corpus.documents.length, machine, report }, null, 2)}\n`,
      );
      return;
    }
    const counts = (kind: string) => questions.filter((q) => q.kind === kind).length;
    const lines = [
      `PostgreSQL manual part III (postgresql-doc-15 ${corpus.packageVersion}), ${corpus.documents.length} sections; ` +
        `${questions.length} questions (${counts('direct')} direct, ${counts('paraphrase')} paraphrases, ${counts('unanswerable')} unanswerable)`,
      `machine: ${JSON.stringify(machine)}; ${new Date().toISOString()}`,
      '',
      '| held-out fold · row | citation@1 % | citation@3 % | MRR | paraphrase citation@1 % | unanswerable declined % | answerable wrongly declined % |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const r of report) {
      lines.push(row(`${r.fold} · plain BM25`, r.bm25));
      lines.push(row(`${r.fold} · builtin v2 (min_confidence ${r.threshold} from fold ${r.fold === 'A' ? 'B' : 'A'})`, r.engine));
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await cleanup.runAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
