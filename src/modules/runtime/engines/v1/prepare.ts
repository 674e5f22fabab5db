import { compileTenantPattern, type TenantPattern } from '../../../bundles/bundle-pattern.js';
import type { Bundle, CatalogRecord, CatalogSearchTool, ParameterExtractor, Rule } from '../../../bundles/bundle.types.js';
import { componentName } from '../../text/jsx.js';
import { compileGuardrails, type CompiledGuardrail } from '../guardrails.js';
import { CatalogPostings } from './catalog-postings.js';
import { shopFacets, type ShopFacets } from './shop.js';
import { IntentClassifier } from '../intent-classifier.js';
import { compileHttpTool, type CompiledHttpTool } from './http-tool.js';

export interface CompiledExtractor {
  def: ParameterExtractor;
  pattern: TenantPattern;
}

export interface CompiledTool {
  def: CatalogSearchTool;
  records: CatalogRecord[];
  /** Search over the fields; record positions are positions in `records`. */
  postings: CatalogPostings<CatalogRecord>;
  intents: Set<string> | null;
  component: string;
  /** Record fields with numbers that look like prices, shown formatted in the reply. */
  priceFields: string[];
  /** Field names present on variants (for string filters). */
  variantFields: Set<string>;
  /** What the shop search reads from the catalog (v1/shop). */
  shop: ShopFacets;
  /** Per record, the processed last words of its title and category (what kind of product it is). */
  recordHeads: string[][];
  /** Per record, the processed last word of its category (null without one): the shop's own word for its kind. */
  categoryHeads: Array<string | null>;
  /** Every record's head terms. */
  headTerms: Set<string>;
}

/** Everything v1 builds once per revision: compiled matchers, classifiers and catalog indexes. */
export interface V1Index {
  guardrails: CompiledGuardrail[];
  intents: IntentClassifier;
  extractors: CompiledExtractor[];
  titles: Map<string, string>;
  types: Map<string, ParameterExtractor['type']>;
  tools: CompiledTool[];
  /** HTTP tools (docs/http-tools.md); empty for most bundles, which then plan without awaiting anything. */
  httpTools: CompiledHttpTool[];
  rules: Rule[];
}

export const VARIANTS_FIELD = '__variants';

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
    httpTools: (bundle.tools ?? []).filter((t) => t.type === 'http').map(compileHttpTool),
    rules: bundle.rules ?? [],
  };
}

function compileTool(def: CatalogSearchTool, records: CatalogRecord[]): CompiledTool {
  const fields = [...new Set([def.title_field, ...(def.fields ?? [])])];
  const variantFields = new Set<string>();
  for (const r of records) for (const v of r.variants ?? []) for (const k of Object.keys(v)) variantFields.add(k);
  const unique = new Map<string, CatalogRecord>();
  for (const r of records) if (r && typeof r.id === 'string' && !unique.has(r.id)) unique.set(r.id, r);
  const kept = [...unique.values()];
  const priceFields = fields.filter((f) => /price|cost|amount|fee/i.test(f));
  const shop = shopFacets(kept, fields, def.title_field, CatalogPostings.terms);
  const typeFields = [def.title_field, ...(shop.categoryField && fields.includes(shop.categoryField) ? [shop.categoryField] : [])];
  const recordHeads = kept.map((r) =>
    typeFields.flatMap((f) => {
      const terms = CatalogPostings.terms(extractField(r, f));
      return terms.length ? [terms[terms.length - 1]!] : [];
    }),
  );
  const categoryField = typeFields[1];
  const categoryHeads = kept.map((r) => (categoryField ? (CatalogPostings.terms(extractField(r, categoryField)).at(-1) ?? null) : null));
  return {
    def,
    records: kept,
    recordHeads,
    categoryHeads,
    headTerms: new Set(recordHeads.flat()),
    postings: new CatalogPostings(
      kept,
      [...fields, VARIANTS_FIELD],
      { [def.title_field]: 2, [VARIANTS_FIELD]: 0.5 },
      extractField,
      typeFields,
    ),
    intents: def.intents?.length ? new Set(def.intents) : null,
    component: componentName(def.collection),
    priceFields,
    variantFields,
    shop,
  };
}

/** A record field's searchable text (variants: their string values). */
export function extractField(doc: CatalogRecord, field: string): string {
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
}
