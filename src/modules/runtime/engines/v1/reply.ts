import type { Bundle, CatalogRecord, Rule, Scalar } from '../../../bundles/bundle.types.js';
import type { CardDto } from '../../runtime.types.js';
import { renderElement } from '../../text/jsx.js';
import type { MaterialSource } from '../plan.js';
import type { ComputedParam } from '../variables.js';
import type { CompiledTool } from './prepare.js';
import { matchingVariant, type Filter, type ToolRun } from './search.js';

export function toCard(tool: CompiledTool, record: CatalogRecord, index: number, recommended: boolean): CardDto {
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

export function filterPhrase(filters: Filter[]): string {
  return filters
    .map((f) => {
      if (f.kind === 'eq') return ` with ${f.field} ${String(f.value)}`;
      if (f.param === 'in_stock') return ' in stock';
      if (f.param === 'cheaper' && typeof f.value === 'number') return ` cheaper than ${money(Math.ceil(f.value), undefined)}`;
      const v = typeof f.value === 'number' && /price|cost|amount|fee/.test(f.field) ? money(f.value, undefined) : String(f.value);
      return f.kind === 'max' ? ` under ${v}` : ` over ${v}`;
    })
    .join('');
}

function humanize(name: string): string {
  return name.replace(/[_-]+/g, ' ').trim();
}

/** A product with its price and, when the shopper named a colour or size, whether that variant is in stock. */
function recordLine(run: ToolRun, record: CatalogRecord, filters: Filter[]): string {
  const title = String(record[run.tool.def.title_field] ?? record.id);
  const details: string[] = [];
  for (const f of run.tool.priceFields) {
    const v = record[f];
    if (typeof v === 'number') details.push(money(v, record.currency));
  }
  const variantFilters = filters.filter((f) => f.kind === 'eq' && (record[f.field] === undefined || record[f.field] === null));
  const variant = variantFilters.length ? matchingVariant(record, variantFilters) : undefined;
  const shown = variantFilters.filter((f) => f.param !== 'in_stock');
  if (variant && shown.length) {
    const what = shown.map((f) => String(variant[f.field])).join(', ');
    details.push(variant.in_stock === false ? `${what} sold out` : `${what} in stock`);
  } else if (!variant) {
    const variants = record.variants?.length ?? 0;
    if (variants) details.push(`${variants} variant${variants === 1 ? '' : 's'}`);
  }
  return `${title}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** "Is it in stock in my size?", "another colour?": what the previous first product has in stock. */
function availabilityLine(run: ToolRun, record: CatalogRecord, sizes: string[], colours: string[]): string {
  const title = String(record[run.tool.def.title_field] ?? record.id);
  if (!sizes.length && !colours.length) return `The ${title} is sold out at the moment.`;
  const parts: string[] = [];
  if (colours.length) parts.push(`in ${colours.join(', ')}`);
  if (sizes.length && !(sizes.length === 1 && /one size/i.test(sizes[0]!))) parts.push(`in sizes ${sizes.join(', ')}`);
  return `The ${title} is in stock ${parts.join(' and ')}. Tell me your size or colour and I'll check that exact one.`;
}

export function composeReply(
  bundle: Bundle,
  intent: string | null,
  runs: ToolRun[],
  ruleMessages: string[],
  queryText: string,
  imageUrl?: string,
  /** The replies of HTTP tools that were called (mapped answers or fallbacks), after the catalog results. */
  httpReplies?: string[],
): string {
  const parts: string[] = [];
  const ran = runs.filter((r) => r.ran);
  for (const run of ran) {
    const subject = run.outcome && 'subject' in run.outcome ? run.outcome.subject : run.query || 'items';
    const where = filterPhrase(run.filters.filter((f) => f.param !== 'in_stock' && f.param !== 'colour'));
    const outcome = run.outcome;
    if (outcome?.kind === 'availability') {
      parts.push(availabilityLine(run, outcome.record, outcome.sizes, outcome.colours));
      continue;
    }
    if (outcome?.kind === 'which_product') {
      if (!ruleMessages.length) {
        parts.push("Which product do you mean? Tell me what you're looking for and I'll check its colours, sizes and stock.");
      }
      continue;
    }
    if (!run.hits.length) {
      // A respond rule (a policy answer) already says what the message was about.
      if (ruleMessages.length && (outcome?.kind === 'not_carried' || outcome?.kind === 'none')) continue;
      if (outcome?.kind === 'not_carried') {
        const sells = outcome.categories.length ? ` We sell ${outcome.categories.map((c) => c.toLowerCase()).join(', ')} and more.` : '';
        parts.push(`Sorry, we don't carry ${outcome.subject || 'that'}.${sells}`);
      } else if (outcome?.kind === 'none') {
        const nearest = outcome.nearest ? ` The closest we have is the ${recordLine(run, outcome.nearest, [])}.` : '';
        parts.push(`Sorry, we don't have ${subject}${where} right now.${nearest}`);
      } else {
        parts.push(
          `I couldn't find any ${subject}${where} in our catalog. Try other words${run.filters.length ? ' or a different filter' : ''}.`,
        );
      }
      continue;
    }
    const n = run.hits.length;
    const lines = run.hits.map(({ record }, i) => `${i + 1}. ${recordLine(run, record, run.filters)}${i === 0 ? ' is my top pick' : ''}`);
    parts.push(`${n === 1 ? 'Here is 1 match' : `Here are ${n} matches`} for ${subject}${where}:\n${lines.join('\n')}`);
  }
  if (httpReplies?.length) parts.push(...httpReplies);
  if (!ran.length && !httpReplies?.length) {
    if (intent && /greet|hello|hi\b|welcome/i.test(intent) && bundle.welcome_message) parts.push(bundle.welcome_message);
    else if (intent && !ruleMessages.length) {
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

/** What a model provider may use to word the reply: the cards as numbered sources, and the facts behind them. */
export function materialFor(
  cards: CardDto[],
  intent: string | null,
  params: ComputedParam[],
  runs: ToolRun[],
  rules: Array<Pick<Rule, 'code' | 'message'>>,
): { sources: MaterialSource[]; facts: string[] } {
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
  for (const r of rules) facts.push(`Rule ${r.code} says to tell the user: ${r.message}`);
  return { sources, facts };
}
