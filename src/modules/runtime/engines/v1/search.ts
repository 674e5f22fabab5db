import type { CatalogRecord, Scalar } from '../../../bundles/bundle.types.js';
import { isStopword, MAX_QUERY_TERMS, processTerm, words } from '../../text/terms.js';
import type { ParamValue } from '../../trace.types.js';
import { CatalogPostings, Heap, positions, type Matches } from './catalog-postings.js';
import type { CompiledTool } from './prepare.js';

export interface Filter {
  field: string;
  kind: 'max' | 'min' | 'eq';
  value: ParamValue;
  param: string;
}

export interface ToolRun {
  tool: CompiledTool;
  ran: boolean;
  reason: string;
  triggerType: 'always' | 'intent';
  query: string;
  filters: Filter[];
  hits: Array<{ record: CatalogRecord; score: number }>;
}

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

/**
 * Best matches first: records covering the most query terms (of those passing the filters), then score, then the
 * search's own order. Records matching every term the best one matches always qualify; with 3+ terms, those
 * matching one term fewer too when strong (score at least 30% of the best passing one). Walks the matches lazily
 * from the best, so a turn checks the filters on a few records rather than on each of thousands of matches.
 */
function best(found: Matches, terms: number, limit: number, passes: (doc: number) => boolean): number[] {
  const { score, covered, order } = found;
  const memo = new Map<number, boolean>();
  const ok = (doc: number): boolean => {
    let pass = memo.get(doc);
    if (pass === undefined) memo.set(doc, (pass = passes(doc)));
    return pass;
  };
  // Heap items are positions in `order` (the search's order, which breaks ties).
  const byRank = new Heap(positions(found.count), (a, b) => {
    const x = order[a]!;
    const y = order[b]!;
    if (covered[x] !== covered[y]) return covered[x]! > covered[y]!;
    return score[x] !== score[y] ? score[x]! > score[y]! : a < b;
  });
  const hits: number[] = [];
  let bestCovered = 0;
  let next: number | undefined;
  while ((next = byRank.pop()) !== undefined) {
    const doc = order[next]!;
    if (bestCovered && covered[doc]! < bestCovered) break;
    if (!ok(doc)) continue;
    bestCovered = covered[doc]!;
    hits.push(doc);
    if (hits.length === limit) return hits;
  }
  const needed = terms >= 3 ? Math.max(1, bestCovered - 1) : bestCovered;
  if (next === undefined || needed === bestCovered) return hits;
  // The bar is 30% of the best passing score, which may belong to a record matching fewer terms.
  let topScore = score[hits[0]!]!;
  const fewer = positions(found.count).filter((i) => covered[order[i]!]! < bestCovered);
  const byScore = new Heap(fewer, (a, b) => score[order[a]!]! > score[order[b]!]!);
  for (let p = byScore.pop(); p !== undefined && score[order[p]!]! > topScore; p = byScore.pop()) {
    if (ok(order[p]!)) {
      topScore = score[order[p]!]!;
      break;
    }
  }
  for (; next !== undefined; next = byRank.pop()) {
    const doc = order[next]!;
    if (covered[doc]! < needed || score[doc]! < topScore * 0.3) break;
    if (ok(doc)) hits.push(doc);
    if (hits.length === limit) break;
  }
  return hits;
}

export function runTool(
  tool: CompiledTool,
  intent: string | null,
  queryText: string,
  params: Map<string, ParamValue>,
  carried = false,
): ToolRun {
  const triggerType = tool.intents ? 'intent' : 'always';
  const skipped = (filters: Filter[], reason: string): ToolRun => ({ tool, triggerType, query: '', filters, hits: [], ran: false, reason });
  if (tool.intents && (!intent || !tool.intents.has(intent))) {
    return skipped([], `runs only for intents ${[...tool.intents].join(', ')}; recognised ${intent ?? 'none'}`);
  }
  const filters = filtersFor(tool, params);
  const query = searchWords(queryText).join(' ');
  const limit = Math.max(1, Math.min(tool.def.max_results || 5, 50));
  let hits: ToolRun['hits'] = [];
  let searched = 0;
  if (query) {
    // Exact terms first; prefix and typo-tolerant matching only when that leaves a query term unmatched.
    const wanted = new Set(
      query
        .split(' ')
        .map((w) => processTerm(w))
        .filter((t): t is string => Boolean(t)),
    );
    const terms = CatalogPostings.terms(query);
    let found = tool.postings.search(terms, false);
    if (!found.count || new Set(terms.filter((t) => tool.postings.has(t))).size < wanted.size) found = tool.postings.search(terms, true);
    searched = found.count;
    hits = best(found, wanted.size, limit, (doc) => matches(tool.records[doc]!, filters)).map((doc) => ({
      record: tool.records[doc]!,
      score: found.score[doc]!,
    }));
  }
  if (!hits.length && filters.length && (!query || searched === 0)) {
    // Nothing in the catalog matches the words (e.g. "gift ideas"): browse by the filters alone.
    hits = tool.records
      .filter((rec) => matches(rec, filters))
      .slice(0, limit)
      .map((record) => ({ record, score: 0 }));
  } else if (!query) {
    return skipped(filters, 'nothing to search for (no words and no filters)');
  }
  const reason = `${tool.intents ? `intent ${intent} is listed for this tool` : 'runs on every unblocked message'}${carried ? ' (continuing the earlier request)' : ''}`;
  return { tool, triggerType, query, filters, hits, ran: true, reason };
}
