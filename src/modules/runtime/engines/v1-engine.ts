import MiniSearch, { type SearchResult } from 'minisearch';
import { compileTenantPattern, findTenantPattern, type TenantPattern } from '../../bundles/bundle-pattern.js';
import type { Bundle, CatalogRecord, CatalogSearchTool, ParameterExtractor, Rule, Scalar } from '../../bundles/bundle.types.js';
import { withSpan } from '../../../telemetry/tracing.js';
import type { CardDto, TurnFacets, TurnInput } from '../runtime.types.js';
import { componentName, renderElement } from '../text/jsx.js';
import { isStopword, MAX_QUERY_TERMS, processTerm, tokenize, words } from '../text/terms.js';
import { checkGuardrails, compileGuardrails, type CompiledGuardrail } from './guardrails.js';
import { IntentClassifier } from './intent-classifier.js';
import type { MaterialSource, TurnPlan } from './plan.js';
import { coerce, flattenVariables, type ComputedParam, type ParamValue } from './variables.js';

export const V1_BUILD = '1.0.0';

interface CompiledExtractor {
  def: ParameterExtractor;
  pattern: TenantPattern;
}

interface CompiledTool {
  def: CatalogSearchTool;
  records: CatalogRecord[];
  byId: Map<string, CatalogRecord>;
  index: MiniSearch<CatalogRecord>;
  intents: Set<string> | null;
  component: string;
  /** Record fields with numbers that look like prices, shown formatted in the reply. */
  priceFields: string[];
  /** Field names present on variants (for string filters). */
  variantFields: Set<string>;
}

/** Everything v1 builds once per revision: compiled matchers, classifiers and catalog indexes. */
export interface V1Index {
  guardrails: CompiledGuardrail[];
  intents: IntentClassifier;
  extractors: CompiledExtractor[];
  titles: Map<string, string>;
  types: Map<string, ParameterExtractor['type']>;
  tools: CompiledTool[];
  rules: Rule[];
}

const VARIANTS_FIELD = '__variants';
const FUZZY = { prefix: (term: string) => term.length >= 4, fuzzy: (term: string) => (term.length >= 6 ? 0.2 : false) } as const;

export function prepareV1(bundle: Bundle): V1Index {
  const extractors: CompiledExtractor[] = [];
  for (const def of bundle.parameters ?? []) {
    try {
      extractors.push({ def, pattern: compileTenantPattern(def.pattern) });
    } catch {
      /* refused on push since the RE2 engine; skipped in older revisions */
    }
  }
  const tools = (bundle.tools ?? [])
    .filter((t) => t.type === 'catalog_search')
    .map((def) => compileTool(def, bundle.collections?.[def.collection] ?? []));
  return {
    guardrails: compileGuardrails(bundle.guardrails),
    intents: new IntentClassifier(bundle.intents),
    extractors,
    titles: new Map((bundle.parameters ?? []).map((p) => [p.code, p.title])),
    types: new Map((bundle.parameters ?? []).map((p) => [p.code, p.type])),
    tools,
    rules: bundle.rules ?? [],
  };
}

function compileTool(def: CatalogSearchTool, records: CatalogRecord[]): CompiledTool {
  const fields = [...new Set([def.title_field, ...(def.fields ?? [])])];
  const variantFields = new Set<string>();
  for (const r of records) for (const v of r.variants ?? []) for (const k of Object.keys(v)) variantFields.add(k);
  const index = new MiniSearch<CatalogRecord>({
    idField: 'id',
    fields: [...fields, VARIANTS_FIELD],
    tokenize,
    processTerm: (term) => processTerm(term),
    extractField: (doc, field) => {
      if (field === VARIANTS_FIELD) {
        return (doc.variants ?? [])
          .map((v) =>
            Object.values(v)
              .filter((x) => typeof x === 'string')
              .join(' '),
          )
          .join(' ');
      }
      const value = doc[field];
      return value === null || value === undefined || typeof value === 'object' ? '' : String(value);
    },
    searchOptions: { boost: { [def.title_field]: 2, [VARIANTS_FIELD]: 0.5 }, combineWith: 'OR' },
  });
  const unique = new Map<string, CatalogRecord>();
  for (const r of records) if (r && typeof r.id === 'string' && !unique.has(r.id)) unique.set(r.id, r);
  index.addAll([...unique.values()]);
  const priceFields = fields.filter((f) => /price|cost|amount|fee/i.test(f));
  return {
    def,
    records: [...unique.values()],
    byId: unique,
    index,
    intents: def.intents?.length ? new Set(def.intents) : null,
    component: componentName(def.collection),
    priceFields,
    variantFields,
  };
}

// ---------------------------------------------------------------------------------------------------------

interface Filter {
  field: string;
  kind: 'max' | 'min' | 'eq';
  value: ParamValue;
  param: string;
}

interface ToolRun {
  tool: CompiledTool;
  ran: boolean;
  reason: string;
  triggerType: 'always' | 'intent';
  query: string;
  filters: Filter[];
  hits: Array<{ record: CatalogRecord; score: number }>;
}

interface RuleEval {
  rule: Rule;
  triggered: boolean;
  present: boolean;
  value: ParamValue | undefined;
  computation: string;
  method: string;
}

const OP_METHOD: Record<Rule['when']['op'], string> = {
  '<': 'less_than',
  '<=': 'less_than_or_equal',
  '>': 'greater_than',
  '>=': 'greater_than_or_equal',
  '=': 'equals',
  exists: 'exists',
};

export function planV1(bundle: Bundle, ix: V1Index, input: TurnInput): TurnPlan {
  const message = input.text ?? '';
  const guard = withSpan('engine.guardrails', () => checkGuardrails(ix.guardrails, message));
  if (!guard.passed) return blockedPlan(bundle, message, guard.reason, guard.message ?? 'I can not help with that.');

  // Understanding: intents by TF-IDF cosine, parameters from the message and the agent variables.
  let intents = withSpan('engine.intent', () => ix.intents.classify(message));
  const own = extractFromMessage(ix, message);
  let queryText = stripSpans(message, own.consumed);
  // A continuation ("under $100" after "trail shoes", "size 42" after a question) carries the thread's recent
  // search words, intent and parameters forward; a message with its own subject and intent starts afresh.
  const earlier = (input.history ?? [])
    .filter((h) => h.role === 'user' && h.text.trim())
    .slice(-3)
    .map((h) => h.text);
  const ownQuery = searchWords(queryText).length > 0;
  const continuation = earlier.length > 0 && (!ownQuery || (intents.length === 0 && own.values.size > 0));
  const carriedValues: Array<Map<string, ComputedParam>> = [];
  let carried = false;
  if (continuation) {
    let needQuery = !ownQuery;
    let needIntent = intents.length === 0;
    for (const prev of [...earlier].reverse()) {
      const extracted = extractFromMessage(ix, prev);
      carriedValues.unshift(extracted.values);
      if (needQuery) {
        const q = stripSpans(prev, extracted.consumed);
        if (searchWords(q).length) {
          queryText = `${q} ${queryText}`;
          needQuery = false;
          carried = true;
        }
      }
      if (needIntent) {
        const c = ix.intents.classify(prev);
        if (c.length) {
          intents = c;
          needIntent = false;
          carried = true;
        }
      }
    }
    if (carriedValues.some((v) => v.size)) carried = true;
  }
  const intent = intents[0]?.name ?? null;
  const params = computeParams(ix, input.agentVariables, carriedValues, own.values);
  const paramMap = new Map(params.map((p) => [p.code, p.value]));

  // Tools
  const runs = withSpan('engine.tools', () => ix.tools.map((tool) => runTool(tool, intent, queryText, paramMap, carried)));

  // Rules
  const evals = withSpan('engine.rules', () => ix.rules.map((rule) => evaluateRule(rule, paramMap)));
  const fired = evals.filter((e) => e.triggered);
  const block = fired.find((e) => e.rule.action === 'block');
  const ask = block ? undefined : fired.find((e) => e.rule.action === 'ask');
  const responds = fired.filter((e) => e.rule.action === 'respond');

  // Cards from every tool that ran (none when a rule blocks or asks first).
  const cards: CardDto[] = [];
  if (!block && !ask) {
    for (const run of runs) {
      run.hits.forEach(({ record }) => {
        cards.push(toCard(run.tool, record, cards.length, cards.length === 0));
      });
    }
  }

  let draft: string;
  let responseType: string;
  if (block) {
    draft = block.rule.message;
    responseType = 'block';
  } else if (ask) {
    draft = ask.rule.message;
    responseType = 'question';
  } else {
    draft = withSpan('engine.compose', () =>
      composeReply(
        bundle,
        intent,
        runs,
        responds.map((e) => e.rule.message),
        queryText,
        input.imageUrl,
      ),
    );
    responseType = cards.length ? 'answer_with_cards' : 'answer';
  }

  const followups = followupsFor(bundle, intent);
  const facets: TurnFacets = {
    tools: runs.filter((r) => r.ran).map((r) => r.tool.def.code),
    rules: evals.map((e) => ({ code: e.rule.code, outcome: !e.triggered ? 'passed' : e.rule.action === 'block' ? 'blocked' : 'fired' })),
    params: Object.fromEntries(params.map((p) => [p.code, p.value])),
  };

  const sources: MaterialSource[] = [];
  for (const card of cards) {
    sources.push({
      key: `${card.capability}:${card.instance}`,
      marker: sources.length + 1,
      label: card.title ?? card.instance ?? 'item',
      text: describeEntity(card.json_data.entity, card.json_data.sub_entities),
    });
  }
  const facts: string[] = [];
  if (intent) facts.push(`Recognised intent: ${intent}.`);
  for (const p of params) {
    facts.push(
      `${p.title} (${p.code}) = ${String(p.value)} (from ${p.scope === 'message' ? 'the message' : `${p.scope} agent variables`}).`,
    );
  }
  for (const run of runs) {
    if (run.ran) {
      facts.push(`Tool ${run.tool.def.code} searched "${run.query}"${filterPhrase(run.filters)} and found ${run.hits.length} result(s).`);
    }
  }
  for (const e of responds) facts.push(`Rule ${e.rule.code} says to tell the user: ${e.rule.message}`);

  return {
    runtime: 'v1',
    build: V1_BUILD,
    draft,
    fixed: Boolean(block || ask),
    instructions:
      'Write a short, friendly reply to the user from the facts and catalog results below. Mention only products listed ' +
      'in the results, with their real names and prices; never invent products, prices or policies. Include every rule message verbatim.',
    sources,
    facts,
    cards,
    intent,
    followups,
    facets,
    finish: (text) => ({
      runtime: 'v1',
      input: { message },
      understanding: { intents: intents.map((i) => i.name), guardrails: { passed: true, reason: guard.reason } },
      decisions: [...runs.map((r, i) => toolDecision(r, i, intent)), ...evals.map((e, i) => ruleDecision(e, i, ix))],
      computed_parameters: params.map((p) => ({ code: p.code, title: p.title, scope: p.scope })),
      response: {
        type: responseType,
        message: text,
        suggestions: followups,
        question_reason: ask ? `rule ${ask.rule.code}: ${ask.computation}` : '',
        asking_for: ask ? (ask.rule.asking_for ?? [ask.rule.when.param]) : [],
        block_message: block ? block.rule.message : '',
        error: '',
        jsx_widgets: cards.map((c) => ({
          name: c.title ?? '',
          category: c.capability ?? '',
          rendered_jsx: c.rendered_jsx,
          is_recommended: c.is_recommended,
          index: c.index,
        })),
      },
      rules_evaluations: evals.map((e) => ({
        code: e.rule.code,
        triggered: e.triggered,
        reason: [{ passed: e.triggered, trigger_type: 'parameter', condition: { method: e.method, operation: e.computation } }],
      })),
    }),
  };
}

function blockedPlan(bundle: Bundle, input: string, reason: string, message: string): TurnPlan {
  return {
    runtime: 'v1',
    build: V1_BUILD,
    draft: message,
    fixed: true,
    instructions: '',
    sources: [],
    facts: [],
    cards: [],
    intent: null,
    followups: bundle.followups?.default ?? [],
    facets: { tools: [], rules: [], params: {} },
    finish: (text, _provider) => ({
      runtime: 'v1',
      input: { message: input },
      understanding: { intents: [], guardrails: { passed: false, reason } },
      decisions: [],
      computed_parameters: [],
      response: {
        type: 'block',
        message: text,
        suggestions: bundle.followups?.default ?? [],
        question_reason: '',
        asking_for: [],
        block_message: message,
        error: '',
        jsx_widgets: [],
      },
      rules_evaluations: [],
    }),
  };
}

/** Values the extractors find in one message, and the spans they consumed (removed from the search words). */
function extractFromMessage(ix: V1Index, message: string): { values: Map<string, ComputedParam>; consumed: Array<[number, number]> } {
  const values = new Map<string, ComputedParam>();
  const consumed: Array<[number, number]> = [];
  if (!message) return { values, consumed };
  for (const { def, pattern } of ix.extractors) {
    const m = findTenantPattern(pattern, message);
    if (!m) continue;
    const value = def.type === 'boolean' && m.group1 === undefined ? true : coerce(m.group1 ?? m.text, def.type);
    if (value === undefined) continue;
    values.set(def.code, { code: def.code, title: def.title, scope: 'message', value });
    consumed.push([m.index, m.index + m.text.length]);
  }
  return { values, consumed };
}

/**
 * Precedence, lowest first: static variables, dynamic variables, earlier messages of a continuation (newer
 * wins), the current message. What the user says beats what the integration assumed.
 */
function computeParams(
  ix: V1Index,
  variables: TurnInput['agentVariables'],
  earlier: Array<Map<string, ComputedParam>>,
  current: Map<string, ComputedParam>,
): ComputedParam[] {
  const out = new Map<string, ComputedParam>();
  const vars = flattenVariables(variables);
  for (const [scope, map] of [
    ['static', vars.static],
    ['dynamic', vars.dynamic],
  ] as const) {
    for (const [code, raw] of map) {
      const type = ix.types.get(code);
      const value = type && typeof raw === 'string' ? coerce(raw, type) : raw;
      if (value === undefined) continue;
      out.set(code, { code, title: ix.titles.get(code) ?? code, scope, value });
    }
  }
  for (const values of [...earlier, current]) for (const [code, p] of values) out.set(code, p);
  return [...out.values()];
}

/** The words a catalog search is made of: distinct content words, at most MAX_QUERY_TERMS of them. */
function searchWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) {
    if (isStopword(w) || (w.length === 1 && !/\d/.test(w))) continue;
    out.add(w);
    if (out.size === MAX_QUERY_TERMS) break;
  }
  return [...out];
}

function stripSpans(text: string, spans: Array<[number, number]>): string {
  if (!spans.length) return text;
  const sorted = [...spans].sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [start, end] of sorted) out = out.slice(0, start) + ' ' + out.slice(end);
  return out;
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
function matches(record: CatalogRecord, filters: Filter[]): boolean {
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

function matchingVariant(record: CatalogRecord, filters: Filter[]): Record<string, Scalar> | undefined {
  return (record.variants ?? []).find((variant) =>
    filters.every((f) => (f.kind === 'eq' ? sameValue(variant[f.field], f.value) : numericOk(variant[f.field], f))),
  );
}

function runTool(tool: CompiledTool, intent: string | null, queryText: string, params: Map<string, ParamValue>, carried = false): ToolRun {
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
    // Best matches first: records covering the most query terms (of those passing the filters), then BM25+ score.
    // Exact terms first; prefix and typo-tolerant matching only when that leaves a query term unmatched.
    let results: SearchResult[] = tool.index.search(query);
    const wanted = new Set(
      query
        .split(' ')
        .map((w) => processTerm(w))
        .filter((t): t is string => Boolean(t)),
    );
    if (!results.length || new Set(results.flatMap((r) => r.queryTerms)).size < wanted.size) {
      results = tool.index.search(query, FUZZY);
    }
    searched = results.length;
    const candidates: Array<{ record: CatalogRecord; score: number; covered: number }> = [];
    for (const r of results) {
      const record = tool.byId.get(String(r.id));
      if (record && matches(record, filters)) candidates.push({ record, score: r.score, covered: new Set(r.queryTerms).size });
    }
    const terms = wanted.size;
    const bestCovered = candidates.reduce((m, c) => Math.max(m, c.covered), 0);
    const needed = terms >= 3 ? Math.max(1, bestCovered - 1) : bestCovered;
    // Records matching every term the best one matches always qualify; partial matches only when strong.
    const topScore = candidates.reduce((m, c) => Math.max(m, c.score), 0);
    hits = candidates
      .filter((c) => c.covered === bestCovered || (c.covered >= needed && c.score >= topScore * 0.3))
      .sort((a, b) => b.covered - a.covered || b.score - a.score)
      .slice(0, limit)
      .map(({ record, score }) => ({ record, score }));
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

function evaluateRule(rule: Rule, params: Map<string, ParamValue>): RuleEval {
  const { param, op, value } = rule.when;
  const actual = params.get(param);
  const present = actual !== undefined;
  const method = OP_METHOD[op] ?? op;
  if (op === 'exists') {
    const wanted = value === false ? false : true;
    return {
      rule,
      present,
      value: actual,
      triggered: present === wanted,
      method,
      computation: `${param} ${wanted ? 'exists' : 'is missing'} → ${present === wanted}`,
    };
  }
  if (!present) return { rule, present, value: actual, triggered: false, method, computation: `${param} is not computed → false` };
  // An "ask" is pointless when everything it asks for is already known.
  if (rule.action === 'ask' && rule.asking_for?.length && rule.asking_for.every((p) => params.has(p))) {
    return {
      rule,
      present,
      value: actual,
      triggered: false,
      method,
      computation: `${param} (${String(actual)}) ${op} ${String(value)}, but ${rule.asking_for.join(', ')} already known → false`,
    };
  }
  let triggered = false;
  const a = typeof actual === 'number' ? actual : typeof actual === 'string' && /^-?\d+(\.\d+)?$/.test(actual) ? Number(actual) : actual;
  const b = value;
  if (op === '=') {
    triggered = typeof a === 'string' || typeof b === 'string' ? String(a).toLowerCase() === String(b).toLowerCase() : a === b;
  } else if (typeof a === 'number' && typeof b === 'number') {
    triggered = op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  return { rule, present, value: actual, triggered, method, computation: `${param} (${String(actual)}) ${op} ${String(b)} → ${triggered}` };
}

function toCard(tool: CompiledTool, record: CatalogRecord, index: number, recommended: boolean): CardDto {
  const entity: Record<string, Scalar> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== 'variants' && (v === null || typeof v !== 'object') && v !== undefined) entity[k] = v as Scalar;
  }
  const variants = record.variants ?? [];
  const title = record[tool.def.title_field];
  const props: Array<[string, Scalar | Array<Record<string, Scalar>>]> = [['id', record.id]];
  props.push(['title', title === undefined || title === null || typeof title === 'object' ? record.id : String(title)]);
  for (const f of tool.def.fields ?? []) {
    if (f === tool.def.title_field || f === 'id' || f === 'title') continue;
    const v = record[f];
    if (v !== undefined && (v === null || typeof v !== 'object')) props.push([f, v as Scalar]);
  }
  // Variants stay in json_data.sub_entities; the JSX carries their count (a card stays small).
  if (variants.length) props.push(['variantCount', variants.length]);
  if (recommended) props.push(['isRecommended', true]);
  return {
    rendered_jsx: renderElement(tool.component, props),
    is_recommended: recommended,
    index,
    json_data: { entity, sub_entities: variants.length ? [{ name: 'variants', items: variants.map((v) => ({ ...v })) }] : [] },
    capability: tool.def.code,
    instance: record.id,
    title:
      typeof title === 'string' ? title : title === undefined || title === null || typeof title === 'object' ? record.id : String(title),
  };
}

function describeEntity(entity: Record<string, unknown>, subs: CardDto['json_data']['sub_entities']): string {
  const parts = Object.entries(entity).map(([k, v]) => `${k}: ${String(v)}`);
  for (const s of subs) parts.push(`${s.name}: ${s.items.map((i) => Object.values(i).join('/')).join('; ')}`);
  return parts.join(', ');
}

function money(value: number, currency: unknown): string {
  const symbol = typeof currency === 'string' && currency ? (currency.toUpperCase() === 'USD' ? '$' : `${currency} `) : '$';
  return `${symbol}${Number.isInteger(value) ? value : value.toFixed(2)}`;
}

function filterPhrase(filters: Filter[]): string {
  return filters
    .map((f) => {
      if (f.kind === 'eq') return ` with ${f.field} ${String(f.value)}`;
      const v = typeof f.value === 'number' && /price|cost|amount|fee/.test(f.field) ? money(f.value, undefined) : String(f.value);
      return f.kind === 'max' ? ` under ${v}` : ` over ${v}`;
    })
    .join('');
}

function humanize(name: string): string {
  return name.replace(/[_-]+/g, ' ').trim();
}

function composeReply(
  bundle: Bundle,
  intent: string | null,
  runs: ToolRun[],
  ruleMessages: string[],
  queryText: string,
  imageUrl?: string,
): string {
  const parts: string[] = [];
  const ran = runs.filter((r) => r.ran);
  for (const run of ran) {
    const subject = run.query || 'items';
    const where = filterPhrase(run.filters);
    if (!run.hits.length) {
      parts.push(
        `I couldn't find any ${subject}${where} in our catalog. Try other words${run.filters.length ? ' or a different filter' : ''}.`,
      );
      continue;
    }
    const n = run.hits.length;
    const lines = run.hits.map(({ record }, i) => {
      const title = String(record[run.tool.def.title_field] ?? record.id);
      const details: string[] = [];
      for (const f of run.tool.priceFields) {
        const v = record[f];
        if (typeof v === 'number') details.push(money(v, record.currency));
      }
      const variantFilters = run.filters.filter((f) => f.kind === 'eq' && (record[f.field] === undefined || record[f.field] === null));
      const variant = variantFilters.length ? matchingVariant(record, variantFilters) : undefined;
      if (variant) {
        const what = variantFilters.map((f) => String(variant[f.field])).join(', ');
        details.push(variant.in_stock === false ? `${what} sold out` : `${what} available`);
      } else {
        const variants = record.variants?.length ?? 0;
        if (variants) details.push(`${variants} variant${variants === 1 ? '' : 's'}`);
      }
      return `${i + 1}. ${title}${details.length ? ` (${details.join(', ')})` : ''}${i === 0 ? ' is my top pick' : ''}`;
    });
    parts.push(`${n === 1 ? 'Here is 1 match' : `Here are ${n} matches`} for ${subject}${where}:\n${lines.join('\n')}`);
  }
  if (!ran.length) {
    if (intent && /greet|hello|hi\b|welcome/i.test(intent) && bundle.welcome_message) parts.push(bundle.welcome_message);
    else if (intent) {
      const hint = bundle.followups?.intents?.[intent]?.[0];
      parts.push(
        `That sounds like a question about ${humanize(intent)}. I can't look that up in this chat${hint ? `, but you could ask: "${hint}"` : ''}.`,
      );
    } else if (!queryText.trim() && imageUrl && !ruleMessages.length) {
      parts.push("I can't look at images in this chat. Tell me what you're looking for and I'll search the catalog.");
    } else if (!ruleMessages.length) {
      const hints = bundle.welcome_suggestions?.length ? bundle.welcome_suggestions : (bundle.followups?.default ?? []);
      parts.push(`I'm not sure I understood.${hints.length ? ` You could ask, for example: "${hints[0]}"` : ' Could you rephrase?'}`);
    }
  }
  parts.push(...ruleMessages);
  return parts.join('\n\n');
}

export function followupsFor(bundle: Bundle, intent: string | null): string[] {
  const byIntent = intent ? bundle.followups?.intents?.[intent] : undefined;
  return [...(byIntent?.length ? byIntent : (bundle.followups?.default ?? []))];
}

function toolDecision(run: ToolRun, i: number, intent: string | null): Record<string, unknown> {
  const top = run.hits[0]?.record;
  return {
    type: 'tool_call',
    tool: run.tool.def.code,
    parent_tool: '',
    track_id: `t${i + 1}`,
    status: !run.ran ? 'skipped' : run.hits.length ? 'completed' : 'no_results',
    check_status: run.ran ? 'passed' : 'not_applicable',
    trigger: {
      type: run.triggerType,
      reasons: [run.reason],
      matched_objective: run.triggerType === 'intent' && run.ran ? (intent ?? '') : '',
    },
    trigger_type: run.triggerType,
    rule: { type: '', action: '', reason: '', code: '' },
    text: run.ran ? `${run.hits.length} result(s) from ${run.tool.def.collection} for "${run.query}"${filterPhrase(run.filters)}` : '',
    fail_reason: run.ran ? '' : run.reason,
    computation: run.ran
      ? `minisearch BM25+ over ${run.tool.def.collection} fields [${[...new Set([run.tool.def.title_field, ...(run.tool.def.fields ?? [])])].join(', ')}], max ${run.tool.def.max_results}${run.filters.length ? `, filters ${run.filters.map((f) => `${f.field} ${f.kind === 'max' ? '<=' : f.kind === 'min' ? '>=' : '='} ${String(f.value)} (from ${f.param})`).join(', ')}` : ''}`
      : '',
    output_param: `${run.tool.def.code}.results`,
    output_title: top ? String(top[run.tool.def.title_field] ?? top.id) : '',
    qualified: run.ran && run.hits.length > 0,
    matched_branch: !run.ran ? 'skipped' : run.hits.length ? 'results' : 'empty',
  };
}

function ruleDecision(e: RuleEval, i: number, ix: V1Index): Record<string, unknown> {
  return {
    type: 'rule',
    tool: '',
    parent_tool: '',
    track_id: `r${i + 1}`,
    status: e.triggered ? 'triggered' : 'not_triggered',
    check_status: e.triggered ? 'passed' : 'failed',
    trigger: { type: 'parameter', reasons: [e.computation], matched_objective: '' },
    trigger_type: 'parameter',
    rule: { type: OP_METHOD[e.rule.when.op] ?? e.rule.when.op, action: e.rule.action, reason: e.computation, code: e.rule.code },
    text: e.triggered ? e.rule.message : '',
    fail_reason: e.triggered
      ? ''
      : e.present || e.rule.when.op === 'exists'
        ? 'condition not met'
        : `parameter ${e.rule.when.param} not computed`,
    computation: e.computation,
    output_param: e.rule.when.param,
    output_title: ix.titles.get(e.rule.when.param) ?? e.rule.when.param,
    qualified: e.triggered,
    matched_branch: e.triggered ? e.rule.action : 'none',
  };
}
