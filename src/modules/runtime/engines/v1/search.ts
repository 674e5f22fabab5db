import type { CatalogRecord, Scalar } from '../../../bundles/bundle.types.js';
import { isStopword, MAX_QUERY_TERMS, processTerm, words } from '../../text/terms.js';
import type { ParamValue } from '../../trace.types.js';
import { CatalogPostings, Heap, type Matches } from './catalog-postings.js';
import type { CompiledTool } from './prepare.js';
import {
  inStockValues,
  isBestseller,
  mergeRequests,
  parseShopRequest,
  passesShop,
  priceOf,
  shopFilters,
  type Filter,
  type ShopRequest,
} from './shop.js';

/** The words a catalog search is made of: distinct content words, at most MAX_QUERY_TERMS of them. */
export function searchWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) {
    if (isStopword(w) || (w.length === 1 && !/\d/.test(w))) continue;
    out.add(w);
    if (out.size === MAX_QUERY_TERMS) break;
  }
  return [...out];
}

/** Parameter → search filter conventions: `max_<field>`, `min_<field>`, `budget` (= max_price), `<field>` (equals). */
function filtersFor(tool: CompiledTool, params: Map<string, ParamValue>): Filter[] {
  const filters: Filter[] = [];
  const fields = new Set([tool.def.title_field, ...(tool.def.fields ?? [])]);
  for (const [code, value] of params) {
    const m = /^(max|min)_(.+)$/.exec(code);
    if (m && typeof value === 'number') filters.push({ field: m[2]!, kind: m[1] as 'max' | 'min', value, param: code });
    else if (code === 'budget' && typeof value === 'number') filters.push({ field: 'price', kind: 'max', value, param: code });
    else if ((fields.has(code) || tool.variantFields.has(code)) && code !== tool.def.title_field) {
      filters.push({ field: code, kind: 'eq', value, param: code });
    }
  }
  return filters;
}

function sameValue(actual: unknown, wanted: ParamValue): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof wanted === 'string' && typeof actual === 'string') {
    const a = actual.toLowerCase();
    const w = wanted.toLowerCase();
    if (a === w) return true;
    return /[^\p{L}\p{N}]/u.test(w) ? a.includes(w) : a.split(/[^\p{L}\p{N}]+/u).includes(w);
  }
  return String(actual).toLowerCase() === String(wanted).toLowerCase();
}

function numericOk(actual: unknown, f: Filter): boolean {
  const n = typeof actual === 'number' ? actual : Number.parseFloat(String(actual));
  if (!Number.isFinite(n) || typeof f.value !== 'number') return false;
  return f.kind === 'max' ? n <= f.value : n >= f.value;
}

/**
 * A record passes when each record-level filter holds on the record, and one variant satisfies all the
 * filters on fields the record itself lacks (so "black, size 10" needs a black size-10 variant).
 */
export function matches(record: CatalogRecord, filters: Filter[]): boolean {
  const onVariants: Filter[] = [];
  for (const f of filters) {
    const v = record[f.field];
    if (v === undefined || v === null || typeof v === 'object') {
      onVariants.push(f);
      continue;
    }
    if (f.kind === 'eq' ? !sameValue(v, f.value) : !numericOk(v, f)) return false;
  }
  if (!onVariants.length) return true;
  return matchingVariant(record, onVariants) !== undefined;
}

export function matchingVariant(record: CatalogRecord, filters: Filter[]): Record<string, Scalar> | undefined {
  return (record.variants ?? []).find((variant) =>
    filters.every((f) => (f.kind === 'eq' ? sameValue(variant[f.field], f.value) : numericOk(variant[f.field], f))),
  );
}

/** What a catalog search concluded, beyond its hits (v1/shop). */
export type SearchOutcome =
  /** Products that fit the request. */
  | { kind: 'found'; subject: string }
  /** The shop sells this kind of product, but none meets the constraints; `nearest` ignores them. */
  | { kind: 'none'; subject: string; nearest: CatalogRecord | null }
  /** Nothing in the catalog is this kind of product. */
  | { kind: 'not_carried'; subject: string; categories: string[] }
  /** A question about the previous answer's first product (stock, sizes, colours). */
  | { kind: 'availability'; record: CatalogRecord; sizes: string[]; colours: string[] }
  /** Such a question with no earlier product in the thread. */
  | { kind: 'which_product' };

export interface ToolRun {
  tool: CompiledTool;
  ran: boolean;
  reason: string;
  triggerType: 'always' | 'intent';
  query: string;
  filters: Filter[];
  hits: Array<{ record: CatalogRecord; score: number }>;
  outcome?: SearchOutcome;
}

/** Exact terms first; prefix and typo-tolerant matching only when that leaves a query term unmatched. */
function searchTerms(postings: CatalogPostings<CatalogRecord>, query: string): { found: Matches; wanted: number } {
  const wanted = new Set(
    query
      .split(' ')
      .map((w) => processTerm(w))
      .filter((t): t is string => Boolean(t)),
  );
  const terms = CatalogPostings.terms(query);
  let found = postings.search(terms, false);
  if (!found.count || new Set(terms.filter((t) => postings.has(t))).size < wanted.size) found = postings.search(terms, true);
  return { found, wanted: wanted.size };
}

/** The thread's request: the first message names the product, later ones refine it (v1/shop). */
function foldRequest(tool: CompiledTool, messages: readonly string[]): ShopRequest {
  let req: ShopRequest = { subject: [] };
  messages.forEach((m, i) => {
    const next = parseShopRequest(tool.shop, m);
    req = i === 0 ? next : mergeRequests(req, next);
  });
  return req;
}

function dedupe(filters: Filter[]): Filter[] {
  const seen = new Set<string>();
  return filters.filter((f) => {
    const key = `${f.field}:${f.kind}:${String(f.value).toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function categoryOf(tool: CompiledTool, record: CatalogRecord): string | undefined {
  const f = tool.shop.categoryField;
  const v = f ? record[f] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** The most common categories (for "we don't carry that; we sell …"). */
function mainCategories(tool: CompiledTool): string[] {
  const counts = new Map<string, number>();
  for (const r of tool.records) {
    const c = categoryOf(tool, r);
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([c]) => c);
}

interface Ranked {
  hits: CatalogRecord[];
  /** The best record of the subject ignoring the constraints (null when nothing is that kind of product). */
  nearest: CatalogRecord | null;
  carried: boolean;
}

/**
 * The records that fit a request, best first. The subject's words must name the kind of product: the records
 * whose title and category meet the most of them form the tier searched (a sandal mentioning "after a run" never
 * outranks a running shoe); within it, records meeting more of the words anywhere come first, then (unless the
 * shopper asked for them) adults' before children's, then the order asked for (cheapest, most popular), then the
 * text score. Every hit satisfies every constraint; fewer than `limit` strong hits are completed with others of
 * the first hit's category.
 */
function rankShop(tool: CompiledTool, req: ShopRequest, filters: Filter[], limit: number): Ranked {
  const f = tool.shop;
  const passes = (r: CatalogRecord) =>
    matches(r, filters) && passesShop(f, req, r) && (!req.popular || req.subject.length > 0 || isBestseller(f, r));
  const exactDepartment = (doc: number) =>
    !!f.departmentField && String(tool.records[doc]![f.departmentField] ?? '').toLowerCase() === req.department?.toLowerCase();
  /** Records by catalog position: < 0 when `a` comes first. */
  const order = (a: number, b: number): number => {
    if (!req.department && f.young[a] !== f.young[b]) return f.young[a]! - f.young[b]!;
    if (req.department && exactDepartment(a) !== exactDepartment(b)) return exactDepartment(a) ? -1 : 1;
    if (req.cheapest || req.cheaper) {
      return (Number.isNaN(f.prices[a]!) ? Infinity : f.prices[a]!) - (Number.isNaN(f.prices[b]!) ? Infinity : f.prices[b]!);
    }
    if (req.popular || !req.subject.length) return f.popularity[b]! - f.popularity[a]!;
    return 0;
  };
  if (!req.subject.length) {
    // Browsing (bestsellers, on sale, under $50): the catalog in the order asked for (computed once per revision),
    // the shopper's department first when named.
    const walk = req.cheapest || req.cheaper ? f.byPrice : f.byPopularity;
    const hits: CatalogRecord[] = [];
    for (const pass of req.department ? [true, false] : [null]) {
      for (let i = 0; i < walk.length && hits.length < limit; i++) {
        const doc = walk[i]!;
        if (pass !== null && exactDepartment(doc) !== pass) continue;
        if (passes(tool.records[doc]!)) hits.push(tool.records[doc]!);
      }
    }
    return { hits, nearest: null, carried: true };
  }
  const query = req.subject.join(' ');
  const { found, wanted } = searchTerms(tool.postings, query);
  // The subject's words met in the title or category (what kind of product a record is).
  const typeCovered = found.typed;
  let maxType = 0;
  for (let i = 0; i < found.count; i++) {
    const doc = found.order[i]!;
    if (typeCovered[doc]! > maxType) maxType = typeCovered[doc]!;
  }
  // Words the catalog does not know at all (matched only as typos of other words, if at all): "tennis racket" is
  // not a "jacket". One unknown word alone may be a typo ("sandles").
  const terms = new Set(CatalogPostings.terms(query));
  if (terms.size > 1 && ![...terms].some((t) => tool.postings.has(t))) return { hits: [], nearest: null, carried: false };
  const heads = new Set([...terms].filter((t) => tool.headTerms.has(t)));
  // A record whose kind (the last word of its category or title) is one of the words ranks first: "shoes" are
  // running shoes before shoe care; when some record is of the kind named, only those of that kind qualify. The
  // category is the shop's own word for a record's kind and outranks the title's: a "Dog Rain Jacket" filed under
  // pet gear is not one of the "waterproof jackets" when jackets are filed as jackets.
  let tier: number[] = [];
  const headed: number[] = [];
  const categoryHeaded: number[] = [];
  for (let i = 0; i < found.count; i++) {
    const doc = found.order[i]!;
    if (typeCovered[doc] !== maxType || (maxType === 0 && found.covered[doc]! < wanted)) continue;
    tier.push(doc);
    if (!heads.size || !tool.recordHeads[doc]!.some((t) => heads.has(t))) continue;
    headed.push(doc);
    // The category's head is one of the record's heads: looked up only for records already headed.
    const categoryHead = tool.categoryHeads[doc];
    if (categoryHead && heads.has(categoryHead)) categoryHeaded.push(doc);
  }
  if (categoryHeaded.length) tier = categoryHeaded;
  else if (headed.length) tier = headed;
  if (!tier.length) return { hits: [], nearest: null, carried: false };
  const { score, covered } = found;
  const rank = (x: number, y: number): number => {
    if (covered[x] !== covered[y]) return covered[y]! - covered[x]!;
    const o = order(x, y);
    if (o) return o;
    return score[y]! - score[x]!;
  };
  // A compound kind the catalog does not have, of two words it uses for other kinds ("ski boots" where skiing gear
  // and boots exist but no boot says ski): not the boots, which would break what was asked.
  const [modifier, head] = [...terms];
  if (
    req.compound &&
    terms.size === 2 &&
    heads.has(head!) &&
    !heads.has(modifier!) &&
    tool.shop.typeTerms.has(modifier!) &&
    !tier.some((doc) => covered[doc]! >= 2)
  ) {
    return { hits: [], nearest: tool.records[tier.reduce((a, b) => (rank(a, b) <= 0 ? a : b))]!, carried: true };
  }
  // Lazily from the best: the filters are checked on a few records, not on each of thousands in the tier.
  const heap = new Heap(Int32Array.from(tier), (a, b) => rank(a, b) < 0);
  // Whether anything passes, in catalog order (stops at the first): popping the whole tier to learn that nothing
  // does would cost a heap pop per record.
  if (!tier.some((doc) => passes(tool.records[doc]!))) return { hits: [], nearest: tool.records[heap.peek()!]!, carried: true };
  let first = heap.pop();
  while (first !== undefined && !passes(tool.records[first]!)) first = heap.pop();
  if (first === undefined) return { hits: [], nearest: null, carried: true };
  const hits = [tool.records[first]!];
  const category = categoryOf(tool, hits[0]!);
  // The strongest (as many words met as the first); then others of the first's category, a bounded look.
  for (let doc = heap.pop(), looked = 0; doc !== undefined && hits.length < limit && looked < 500; doc = heap.pop(), looked++) {
    const strong = covered[doc] === covered[first] || (category !== undefined && categoryOf(tool, tool.records[doc]!) === category);
    if (strong && passes(tool.records[doc]!)) hits.push(tool.records[doc]!);
  }
  return { hits, nearest: null, carried: true };
}

/** Describes a request's subject for the reply ("bestsellers", "items on sale", or its words). */
function subjectPhrase(req: ShopRequest): string {
  const words = req.subject.join(' ');
  const who = req.department ? ` for ${req.department.toLowerCase()}` : '';
  if (words) return `${req.sale ? 'discounted ' : ''}${req.colour ? `${req.colour} ` : ''}${words}${who}`;
  if (req.popular) return `our bestsellers${who}`;
  if (req.sale) return `items on sale${who}`;
  return `${req.colour ? `${req.colour} ` : ''}items${who}`;
}

export function runTool(
  tool: CompiledTool,
  intent: string | null,
  queryText: string,
  params: Map<string, ParamValue>,
  carried = false,
  /** The thread's request as messages, oldest first, the current one last (defaults to `queryText` alone). */
  thread?: readonly string[],
): ToolRun {
  const triggerType = tool.intents ? 'intent' : 'always';
  const skipped = (filters: Filter[], reason: string): ToolRun => ({ tool, triggerType, query: '', filters, hits: [], ran: false, reason });
  if (tool.intents && (!intent || !tool.intents.has(intent))) {
    return skipped([], `runs only for intents ${[...tool.intents].join(', ')}; recognised ${intent ?? 'none'}`);
  }
  const messages = thread?.length ? thread : [queryText];
  const req = foldRequest(tool, messages);
  const limit = Math.max(1, Math.min(tool.def.max_results || 5, 50));
  const reason = `${tool.intents ? `intent ${intent} is listed for this tool` : 'runs on every unblocked message'}${carried ? ' (continuing the earlier request)' : ''}`;
  let filters = dedupe([...filtersFor(tool, params), ...shopFilters(tool.shop, req)]);
  const earlier = messages.length > 1 ? foldRequest(tool, messages.slice(0, -1)) : null;
  // "Is it in stock?", "another colour?": about the first product of the previous answer.
  if (earlier && req.availability && (req.anaphora || !parseShopRequest(tool.shop, messages.at(-1)!).subject.length)) {
    const previous = rankShop(tool, earlier, dedupe(shopFilters(tool.shop, earlier)), 1).hits[0];
    if (previous) {
      const outcome: SearchOutcome = {
        kind: 'availability',
        record: previous,
        sizes: inStockValues(tool.shop, previous, tool.shop.sizeField),
        colours: inStockValues(tool.shop, previous, tool.shop.colourField),
      };
      return {
        tool,
        triggerType,
        query: earlier.subject.join(' '),
        filters: [],
        hits: [{ record: previous, score: 0 }],
        ran: true,
        reason,
        outcome,
      };
    }
  }
  if (req.cheaper && tool.shop.priceField) {
    const previous = earlier ? rankShop(tool, earlier, dedupe(shopFilters(tool.shop, earlier)), 1).hits[0] : undefined;
    const price = previous ? priceOf(tool.shop, previous) : undefined;
    if (price !== undefined) {
      const field = tool.shop.priceField;
      filters = [
        ...filters.filter((x) => !(x.field === field && x.kind === 'max')),
        { field, kind: 'max', value: price - 0.01, param: 'cheaper' },
      ];
    }
  }
  if (req.availability && !earlier && !req.subject.length) {
    return { tool, triggerType, query: '', filters: [], hits: [], ran: true, reason, outcome: { kind: 'which_product' } };
  }
  const constrained = filters.length > 0 || req.sale || req.popular || req.cheapest || req.cheaper || req.department !== undefined;
  if (!req.subject.length && !constrained) return skipped(filters, 'nothing to search for (no words and no filters)');
  const ranked = rankShop(tool, req, filters, limit);
  const subject = subjectPhrase(req);
  const query = req.subject.join(' ') || searchWords(queryText).join(' ');
  const hits = ranked.hits.map((record) => ({ record, score: 0 }));
  let outcome: SearchOutcome;
  if (hits.length) outcome = { kind: 'found', subject };
  else if (!ranked.carried) outcome = { kind: 'not_carried', subject: req.subject.join(' '), categories: mainCategories(tool) };
  else outcome = { kind: 'none', subject, nearest: ranked.nearest };
  return { tool, triggerType, query, filters, hits, ran: true, reason, outcome };
}
