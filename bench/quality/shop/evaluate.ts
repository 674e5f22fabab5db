import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { Bundle, CatalogRecord } from '../../../src/modules/bundles/bundle.types.js';
import { SHOPPING_ASSISTANT_TEMPLATE } from '../../../src/modules/bundles/templates/shopping-assistant.template.js';
import { planV1 } from '../../../src/modules/runtime/engines/v1-engine.js';
import { prepareV1 } from '../../../src/modules/runtime/engines/v1/prepare.js';
import type { CardConstraint, ShopCase } from './cases.js';

/** What one system answered to a case's last turn (and the first card of the turn before, for "cheaper"). */
export interface ShopAnswer {
  case: ShopCase;
  cards: string[];
  text: string;
  previousTop: string | null;
}

/**
 * The shop bundle the set runs against: the shopping template (intents, parameters, guardrails, follow-ups) with
 * the evaluation catalog, a catalog search that runs on every message (a catalog-first shop), and without the
 * template's price rules (they name the template's own products).
 */
export function shopBundle(catalog: CatalogRecord[]): Bundle {
  const template = SHOPPING_ASSISTANT_TEMPLATE.bundle;
  const tool = template.tools!.find((t) => t.type === 'catalog_search')!;
  return {
    ...template,
    name: 'Harbor & Pine',
    tools: [{ ...tool, intents: undefined }],
    collections: { products: catalog },
    rules: (template.rules ?? []).filter((r) => r.when.param !== 'budget'),
  };
}

/** Runs each case as a thread of the v1 engine (builtin wording), turn by turn, with the thread's history. */
export function askEngine(bundle: Bundle, cases: ShopCase[]): ShopAnswer[] {
  const ix = prepareV1(bundle);
  return cases.map((c) => {
    const history: Array<{ role: 'user' | 'agent'; text: string }> = [];
    let previousTop: string | null = null;
    let cards: string[] = [];
    let text = '';
    for (const turn of c.turns) {
      previousTop = cards[0] ?? null;
      const plan = planV1(bundle, ix, { text: turn, agentVariables: {}, history: [...history] });
      cards = plan.cards.map((card) => card.instance ?? '');
      text = plan.draft;
      history.push({ role: 'user', text: turn }, { role: 'agent', text });
    }
    return { case: c, cards, text, previousTop };
  });
}

/** The reference row: minisearch BM25 with the Porter stemmer over the product's text, the thread's words as one query. */
export function askBm25(catalog: CatalogRecord[], cases: ShopCase[]): ShopAnswer[] {
  const index = new MiniSearch<CatalogRecord>({
    fields: ['name', 'category', 'department', 'brand', 'colours', 'description'],
    processTerm: (term) => stemmer(term.toLowerCase()),
  });
  index.addAll(catalog);
  const top3 = (q: string) =>
    index
      .search(q)
      .slice(0, 3)
      .map((r) => String(r.id));
  return cases.map((c) => {
    const previous = c.turns.length > 1 ? (top3(c.turns.slice(0, -1).join(' '))[0] ?? null) : null;
    const cards = top3(c.turns.join(' '));
    return { case: c, cards, text: '', previousTop: previous };
  });
}

/** Whether a record satisfies a constraint (stock is per variant: colour and size together when both are given). */
export function satisfies(record: CatalogRecord, k: CardConstraint, byId: Map<string, CatalogRecord>, previousTop: string | null): boolean {
  const price = Number(record.price);
  if (k.maxPrice !== undefined && !(price <= k.maxPrice)) return false;
  if (k.categories && !k.categories.includes(String(record.category))) return false;
  if (k.departments && !k.departments.includes(String(record.department))) return false;
  if (k.brand && String(record.brand).toLowerCase() !== k.brand.toLowerCase()) return false;
  if (k.onSale !== undefined && record.on_sale !== k.onSale) return false;
  if (k.bestseller !== undefined && record.bestseller !== k.bestseller) return false;
  if (k.colour || k.size) {
    const ok = (record.variants ?? []).some(
      (v) =>
        v.in_stock === true &&
        (!k.colour || String(v.colour).toLowerCase().split(/\s+/).includes(k.colour.toLowerCase())) &&
        (!k.size || String(v.size).toLowerCase() === k.size.toLowerCase()),
    );
    if (!ok) return false;
  }
  if (k.cheaperThanPreviousTop) {
    const before = previousTop ? byId.get(previousTop) : undefined;
    if (!before || !(price < Number(before.price))) return false;
  }
  return true;
}

/** A reply that says the shop has nothing for the request (and is not the engine's generic fallback). */
const SAYS_NONE =
  /\b(?:don't|do not|doesn't|does not)\s+(?:carry|sell|stock|have)\b|\bnothing\b|\bno (?:\w+ ){0,3}(?:matches|match|products?|items?)\b|\bnone of\b/i;

export interface ShopFigures {
  searches: number;
  top1: number;
  refinements: number;
  refinementTop1: number;
  /** Cards (of every case) breaking a constraint of their case. */
  violations: number;
  cards: number;
  unsatisfiable: number;
  unsatisfiableAnswered: number;
  unsold: number;
  unsoldAnswered: number;
}

/** NaN when there is nothing to count (a held-out half without such cases): the spread skips it. */
const pct = (n: number, d: number) => (d ? (100 * n) / d : Number.NaN);

export interface Judged {
  answer: ShopAnswer;
  top1: boolean;
  violations: string[];
  answeredNone: boolean;
}

export function judge(answer: ShopAnswer, byId: Map<string, CatalogRecord>, requireText: boolean): Judged {
  const c = answer.case;
  const records = answer.cards.map((id) => byId.get(id)).filter((r): r is CatalogRecord => Boolean(r));
  const violations: string[] = [];
  if (c.kind === 'unsold') violations.push(...answer.cards);
  else if (c.must) for (const r of records) if (!satisfies(r, c.must, byId, answer.previousTop)) violations.push(r.id);
  const first = records[0];
  const top1 =
    !!first &&
    (Array.isArray(c.top) ? c.top.includes(first.id) : !!c.top && satisfies(first, c.top, byId, answer.previousTop)) &&
    (!c.must || satisfies(first, c.must, byId, answer.previousTop));
  const answeredNone = answer.cards.length === 0 && (!requireText || SAYS_NONE.test(answer.text));
  return { answer, top1, violations, answeredNone };
}

export function shopFigures(judged: Judged[]): ShopFigures {
  const of = (kind: ShopCase['kind']) => judged.filter((j) => j.answer.case.kind === kind);
  const searches = of('search');
  const refinements = of('refine');
  const unsat = of('unsatisfiable');
  const unsold = of('unsold');
  return {
    searches: searches.length,
    top1: pct(searches.filter((j) => j.top1).length, searches.length),
    refinements: refinements.length,
    refinementTop1: pct(refinements.filter((j) => j.top1).length, refinements.length),
    violations: judged.reduce((s, j) => s + j.violations.length, 0),
    cards: judged.reduce((s, j) => s + j.answer.cards.length, 0),
    unsatisfiable: unsat.length,
    unsatisfiableAnswered: pct(unsat.filter((j) => j.answeredNone).length, unsat.length),
    unsold: unsold.length,
    unsoldAnswered: pct(unsold.filter((j) => j.answeredNone).length, unsold.length),
  };
}
