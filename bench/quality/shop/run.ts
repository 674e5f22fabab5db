/**
 * The shop evaluation (bench/quality/shop): the v1 engine and a plain stemmed BM25 on the Harbor & Pine catalog
 * (157 products) and its shopper cases, in process (the engine's own prepareV1/planV1, builtin wording).
 *
 *   npm run quality:shop            (builds, then node dist/bench/quality/shop/run.js [--splits N] [--misses] [--final])
 *
 * The cases are split by group (a need and its paraphrases stay together) into development and held-out halves,
 * `--splits` times (seeded, reproducible); the table reports the held-out halves' mean and spread (min–max). The
 * engine has no parameter fitted per split: its constants were set looking only at the misses `--misses` prints,
 * which are those of split 0's development half. `--final` runs the final set (final-cases.ts, written last) once.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CatalogRecord } from '../../../src/modules/bundles/bundle.types.js';
import { SHOP_CASES, type ShopCase } from './cases.js';
import { loadShopCatalog } from './catalog.js';
import { askBm25, askEngine, judge, shopBundle, shopFigures, type Judged, type ShopFigures } from './evaluate.js';
import { FINAL_SHOP_CASES } from './final-cases.js';
import { seededRandom } from '../../lib/seeded-random.js';

const { values } = parseArgs({
  options: {
    splits: { type: 'string', default: '24' },
    misses: { type: 'boolean', default: false },
    final: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Half of the groups (shuffled by the seed) are the development half; the other half is held out. */
function split(cases: ShopCase[], seed: number): { dev: Set<string>; held: Set<string> } {
  const groups = [...new Set(cases.map((c) => c.group))];
  const next = seededRandom(seed + 1);
  for (let i = groups.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [groups[i], groups[j]] = [groups[j]!, groups[i]!];
  }
  const half = Math.floor(groups.length / 2);
  return { dev: new Set(groups.slice(0, half)), held: new Set(groups.slice(half)) };
}

type Metric = 'top1' | 'refinementTop1' | 'violations' | 'unsatisfiableAnswered' | 'unsoldAnswered';
const METRICS: Array<[Metric, string]> = [
  ['top1', 'top-1 %'],
  ['refinementTop1', 'refinements top-1 %'],
  ['violations', 'constraint violations (cards)'],
  ['unsatisfiableAnswered', 'unsatisfiable answered as such %'],
  ['unsoldAnswered', 'not sold answered as such %'],
];

function spread(list: ShopFigures[], metric: Metric): string {
  const xs = list.map((f) => f[metric]).filter((x) => !Number.isNaN(x));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const digits = metric === 'violations' ? 1 : 1;
  return `${mean.toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
}

function describe(j: Judged): string {
  const c = j.answer.case;
  const what =
    c.kind === 'unsold' || c.kind === 'unsatisfiable' ? (j.answeredNone ? 'ok' : 'NOT ANSWERED AS NONE') : j.top1 ? 'ok' : 'TOP-1 MISS';
  const bad = j.violations.length ? ` violations: ${j.violations.join(',')}` : '';
  return `${c.id} [${c.kind}] ${what}${bad} :: ${c.turns.join(' › ')} → ${j.answer.cards.join(', ') || '(no cards)'} | ${j.answer.text.split('\n')[0]}`;
}

function main(): void {
  const catalog: CatalogRecord[] = loadShopCatalog(ROOT);
  const byId = new Map(catalog.map((r) => [r.id, r]));
  const bundle = shopBundle(catalog);
  const started = Date.now();
  if (values.final) {
    const engine = askEngine(bundle, FINAL_SHOP_CASES).map((a) => judge(a, byId, true));
    const bm25 = askBm25(catalog, FINAL_SHOP_CASES).map((a) => judge(a, byId, false));
    const lines = [`final set: ${FINAL_SHOP_CASES.length} cases, run once`, '', '| row | ' + METRICS.map((m) => m[1]).join(' | ') + ' |'];
    lines.push(`| --- |${METRICS.map(() => ' --- |').join('')}`);
    for (const [name, judged] of [
      ['plain stemmed BM25', bm25],
      ['builtin v1', engine],
    ] as const) {
      const f = shopFigures(judged);
      lines.push(`| ${name} | ${METRICS.map(([m]) => f[m].toFixed(1)).join(' | ')} |`);
    }
    if (values.misses) lines.push('', ...engine.filter((j) => !j.top1 || j.violations.length).map(describe));
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  const engine = askEngine(bundle, SHOP_CASES).map((a) => judge(a, byId, true));
  const bm25 = askBm25(catalog, SHOP_CASES).map((a) => judge(a, byId, false));
  const n = Number(values.splits);
  const rows: Record<'engine' | 'bm25', ShopFigures[]> = { engine: [], bm25: [] };
  for (let seed = 0; seed < n; seed++) {
    const { held } = split(SHOP_CASES, seed);
    rows.engine.push(shopFigures(engine.filter((j) => held.has(j.answer.case.group))));
    rows.bm25.push(shopFigures(bm25.filter((j) => held.has(j.answer.case.group))));
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ splits: n, all: shopFigures(engine), heldOut: rows }, null, 2)}\n`);
    return;
  }
  const counts = (kind: ShopCase['kind']) => SHOP_CASES.filter((c) => c.kind === kind).length;
  const lines = [
    `shop set: ${catalog.length} products; ${SHOP_CASES.length} cases (${counts('search')} searches, ${counts('refine')} refinements, ` +
      `${counts('unsatisfiable')} unsatisfiable, ${counts('unsold')} not sold); held-out halves of ${n} splits by group: mean (min–max)`,
    '',
    '| row | ' + METRICS.map((m) => m[1]).join(' | ') + ' |',
    `| --- |${METRICS.map(() => ' --- |').join('')}`,
    `| plain stemmed BM25 | ${METRICS.map(([m]) => spread(rows.bm25, m)).join(' | ')} |`,
    `| builtin v1 | ${METRICS.map(([m]) => spread(rows.engine, m)).join(' | ')} |`,
  ];
  if (values.misses) {
    const { dev } = split(SHOP_CASES, 0);
    lines.push('', 'split 0, development half, misses:');
    lines.push(
      ...engine
        .filter((j) => dev.has(j.answer.case.group))
        .filter((j) => !j.top1 || j.violations.length)
        .map(describe),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(`[quality:shop] ${SHOP_CASES.length} cases in ${Date.now() - started} ms\n`);
}

main();
