import { findTenantPattern } from '../../../bundles/bundle-pattern.js';
import { withSpan } from '../../../../telemetry/tracing.js';
import type { TurnInput } from '../../runtime.types.js';
import type { IntentMatch } from '../intent-classifier.js';
import { coerce, flattenVariables, type ComputedParam } from '../variables.js';
import type { V1Index } from './prepare.js';
import { searchWords } from './search.js';
import { namesProductType, parseShopRequest, type ShopFacets, type ShopRequest } from './shop.js';
import { processTerm } from '../../text/terms.js';

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
export function computeParams(
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

function stripSpans(text: string, spans: Array<[number, number]>): string {
  if (!spans.length) return text;
  const sorted = [...spans].sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [start, end] of sorted) out = out.slice(0, start) + ' ' + out.slice(end);
  return out;
}

/**
 * Understanding: intents by TF-IDF cosine, parameters from the message (the agent variables join them in
 * computeParams), and the words to search for.
 */
export function understand(
  ix: V1Index,
  input: TurnInput,
  message: string,
): {
  intents: IntentMatch[];
  ownValues: Map<string, ComputedParam>;
  queryText: string;
  carriedValues: Array<Map<string, ComputedParam>>;
  carried: boolean;
  /** The thread's request as messages, oldest first, this message last. */
  thread: string[];
} {
  let intents = withSpan('engine.intent', () => ix.intents.classify(message));
  const own = extractFromMessage(ix, message);
  let queryText = stripSpans(message, own.consumed);
  // A continuation ("under $100" after "trail shoes", "in blue?", "anything cheaper?") carries the thread's
  // request forward: its earlier messages back to the one that named the product, its intent and parameters. A
  // message that names a product of its own (or something the catalog does not know) starts afresh.
  const earlier = (input.history ?? [])
    .filter((h) => h.role === 'user' && h.text.trim())
    .slice(-4)
    .map((h) => h.text);
  const shop = ix.tools[0]?.shop;
  const ownRequest = shop ? parseShopRequest(shop, message) : null;
  const ownQuery = ownRequest ? startsRequest(shop!, ownRequest) : searchWords(queryText).length > 0;
  const continuation = earlier.length > 0 && (!ownQuery || (!ownRequest && intents.length === 0 && own.values.size > 0));
  const carriedValues: Array<Map<string, ComputedParam>> = [];
  const thread: string[] = [message];
  let carried = false;
  if (continuation) {
    let needQuery = !ownQuery;
    let needIntent = intents.length === 0;
    for (const prev of [...earlier].reverse()) {
      const extracted = extractFromMessage(ix, prev);
      carriedValues.unshift(extracted.values);
      thread.unshift(prev);
      if (needQuery) {
        const q = stripSpans(prev, extracted.consumed);
        if (shop ? namesProductType(shop, parseShopRequest(shop, prev).subject) : searchWords(q).length) {
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
      if (!needQuery && !needIntent) break;
    }
    if (carriedValues.some((v) => v.size)) carried = true;
  }
  return { intents, ownValues: own.values, queryText, carriedValues, carried, thread };
}

/**
 * Whether a message starts a request of its own: it names a kind of product the catalog has, or words the catalog
 * does not know at all without any constraint to refine ("do you sell skateboards?"). "In blue?", "for women",
 * "anything cheaper?" refine the thread's request instead.
 */
function startsRequest(shop: ShopFacets, req: ShopRequest): boolean {
  if (namesProductType(shop, req.subject)) return true;
  const constraint =
    req.maxPrice !== undefined ||
    req.minPrice !== undefined ||
    req.colour !== undefined ||
    req.size !== undefined ||
    req.department !== undefined ||
    req.sale ||
    req.popular ||
    req.cheapest ||
    req.cheaper ||
    req.availability;
  return !constraint && req.subject.length > 0 && !req.subject.some((w) => shop.allTerms.has(processTerm(w) ?? ''));
}
