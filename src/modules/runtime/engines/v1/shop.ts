import type { CatalogRecord, Scalar } from '../../../bundles/bundle.types.js';
import { isStopword, MAX_QUERY_TERMS, processTerm, words } from '../../text/terms.js';
import type { ParamValue } from '../../trace.types.js';

/** One constraint on a catalog record (or its variant): a tool parameter, or a shopper's word read as one. */
export interface Filter {
  field: string;
  kind: 'max' | 'min' | 'eq';
  value: ParamValue;
  param: string;
}

/*
 * What a catalog search understands of a shopper's message, read from the catalog itself: its colours, sizes,
 * departments and product types (the title and category fields), its price, sale and popularity fields. Nothing
 * here names a product: the vocabulary comes from the records, the phrasing (under $100, in blue, size 42, for
 * women, on sale, bestsellers, cheaper) is everyday shop English.
 */

/** The catalog fields a shop search reads, found once per revision (null when the catalog has no such field). */
export interface ShopFacets {
  priceField: string | null;
  /** Variant fields for colour and size, and the variant stock flag. */
  colourField: string | null;
  sizeField: string | null;
  stockField: string | null;
  /** Record field naming the kind of product (category, type…), besides the title. */
  categoryField: string | null;
  departmentField: string | null;
  saleField: string | null;
  compareAtField: string | null;
  bestsellerField: string | null;
  popularityField: string | null;
  ratingField: string | null;
  /** Single colour words (lower case) → themselves; "gray" reaches "grey" and back. */
  colours: Set<string>;
  /** Sizes as written in the catalog, by lower case. */
  sizes: Map<string, string>;
  /** Department values by lower case. */
  departments: Map<string, string>;
  /** Processed terms of the title and category fields: the words that name what the shop sells. */
  typeTerms: Set<string>;
  /** Processed terms of every searchable field. */
  allTerms: Set<string>;
  /** Per record (catalog position): 1 when its department is for children; its price and popularity (NaN: none). */
  young: Uint8Array;
  prices: Float64Array;
  popularity: Float64Array;
  /** Record positions, adults' first, by popularity (then catalog order) and by price (then catalog order). */
  byPopularity: Int32Array;
  byPrice: Int32Array;
}

const FIELD = {
  price: /^(price|sale_price|current_price|amount)$/i,
  colour: /^colou?rs?$/i,
  size: /^sizes?$/i,
  stock: /^(in_stock|available|instock|stock)$/i,
  category: /^(category|categories|product_type|type|kind|subcategory)$/i,
  department: /^(department|gender|audience|section)$/i,
  sale: /^(on_sale|sale|is_on_sale|discounted)$/i,
  compareAt: /^(compare_at_price|was_price|original_price|list_price|regular_price|msrp)$/i,
  bestseller: /^(bestseller|best_seller|is_bestseller|top_seller)$/i,
  popularity: /^(popularity|units_sold|sold|sales|sales_rank_inverse|orders)$/i,
  rating: /^(rating|stars|average_rating)$/i,
};

function firstKey(keys: Iterable<string>, re: RegExp): string | null {
  for (const k of keys) if (re.test(k)) return k;
  return null;
}

/** Everyday words for department values (a shop's departments are usually some of these). */
const DEPARTMENT_WORDS: Array<[RegExp, string[]]> = [
  [
    /^(men|mens|man|male|gents?)$/,
    ['men', 'mens', "men's", 'man', 'male', 'guy', 'guys', 'gents', 'husband', 'boyfriend', 'dad', 'father', 'him'],
  ],
  [
    /^(women|womens|woman|female|ladies)$/,
    ['women', 'womens', "women's", 'woman', 'female', 'ladies', 'lady', 'wife', 'girlfriend', 'mum', 'mom', 'mother', 'her'],
  ],
  [
    /^(kids?|children|child|boys|girls|youth|junior)$/,
    [
      'kids',
      'kid',
      "kid's",
      "kids'",
      'children',
      "children's",
      'child',
      'boys',
      'girls',
      'boy',
      'girl',
      'son',
      'daughter',
      'toddler',
      'toddlers',
      'junior',
    ],
  ],
  [/^(baby|babies|infant)$/, ['baby', 'babies', 'infant', 'newborn']],
];

/** Values shops put in a colour field that are not colours a shopper would ask for. */
const NOT_COLOURS = new Set([
  'multi',
  'multicolour',
  'multicolor',
  'mixed',
  'assorted',
  'various',
  'digital',
  'none',
  'default',
  'standard',
  'natural',
  'clear',
  'print',
  'pattern',
]);

/** Department values any adult request also accepts. */
const EVERYONE = /^(unisex|all|everyone|adult|adults)$/i;
/** Department values that are not the default audience when the shopper names none. */
const YOUNG = /^(kids?|children|child|baby|babies|infant|junior|youth|boys|girls)$/i;

export function shopFacets(
  records: readonly CatalogRecord[],
  searchable: readonly string[],
  titleField: string,
  terms: (text: string) => string[],
): ShopFacets {
  const recordKeys = new Set<string>();
  const variantKeys = new Set<string>();
  for (const r of records.slice(0, 200)) {
    for (const k of Object.keys(r)) recordKeys.add(k);
    for (const v of r.variants ?? []) for (const k of Object.keys(v)) variantKeys.add(k);
  }
  const numeric = (k: string | null) => (k && records.some((r) => typeof r[k] === 'number') ? k : null);
  const facets: ShopFacets = {
    priceField: numeric(firstKey(recordKeys, FIELD.price)),
    colourField: firstKey(variantKeys, FIELD.colour),
    sizeField: firstKey(variantKeys, FIELD.size),
    stockField: firstKey(variantKeys, FIELD.stock),
    categoryField: firstKey(recordKeys, FIELD.category),
    departmentField: firstKey(recordKeys, FIELD.department),
    saleField: firstKey(recordKeys, FIELD.sale),
    compareAtField: numeric(firstKey(recordKeys, FIELD.compareAt)),
    bestsellerField: firstKey(recordKeys, FIELD.bestseller),
    popularityField: numeric(firstKey(recordKeys, FIELD.popularity)),
    ratingField: numeric(firstKey(recordKeys, FIELD.rating)),
    colours: new Set(),
    sizes: new Map(),
    departments: new Map(),
    typeTerms: new Set(),
    allTerms: new Set(),
    young: new Uint8Array(records.length),
    prices: new Float64Array(records.length),
    popularity: new Float64Array(records.length),
    byPopularity: new Int32Array(0),
    byPrice: new Int32Array(0),
  };
  for (const r of records) {
    for (const v of r.variants ?? []) {
      const c = facets.colourField ? v[facets.colourField] : undefined;
      if (typeof c === 'string') for (const w of words(c)) if (w.length > 2 && !/\d/.test(w) && !NOT_COLOURS.has(w)) facets.colours.add(w);
      const s = facets.sizeField ? v[facets.sizeField] : undefined;
      if (typeof s === 'string' || typeof s === 'number') facets.sizes.set(String(s).toLowerCase(), String(s));
    }
    const d = facets.departmentField ? r[facets.departmentField] : undefined;
    if (typeof d === 'string') facets.departments.set(d.toLowerCase(), d);
    for (const f of [titleField, facets.categoryField]) {
      const t = f ? r[f] : undefined;
      if (typeof t === 'string') for (const term of terms(t)) facets.typeTerms.add(term);
    }
    for (const f of searchable) {
      const t = r[f];
      if (typeof t === 'string') for (const term of terms(t)) facets.allTerms.add(term);
    }
  }
  records.forEach((r, i) => {
    facets.young[i] = forYoung(facets, r) ? 1 : 0;
    facets.prices[i] = priceOf(facets, r) ?? Number.NaN;
    facets.popularity[i] = popularity(facets, r);
  });
  const positions = Array.from(records, (_, i) => i);
  const priced = (i: number) => (Number.isNaN(facets.prices[i]!) ? Infinity : facets.prices[i]!);
  facets.byPopularity = Int32Array.from(
    [...positions].sort((a, b) => facets.young[a]! - facets.young[b]! || facets.popularity[b]! - facets.popularity[a]! || a - b),
  );
  facets.byPrice = Int32Array.from([...positions].sort((a, b) => facets.young[a]! - facets.young[b]! || priced(a) - priced(b) || a - b));
  if (facets.colours.has('grey')) facets.colours.add('gray');
  if (facets.colours.has('gray')) facets.colours.add('grey');
  return facets;
}

/** What a message asks of the catalog. */
export interface ShopRequest {
  /** The words naming what is wanted (constraints and shop filler words removed). */
  subject: string[];
  maxPrice?: number;
  minPrice?: number;
  colour?: string;
  size?: string;
  department?: string;
  sale?: boolean;
  popular?: boolean;
  cheapest?: boolean;
  /** "anything cheaper?": cheaper than the previous answer's first product. */
  cheaper?: boolean;
  /** "is it in stock?", "another colour?": about the previous answer's first product. */
  availability?: boolean;
  /** Whether the message refers back to something ("it", "them", "that one"). */
  anaphora?: boolean;
  /** Whether the subject's words stand next to each other in the message ("ski boots", not "sunglasses for running"). */
  compound?: boolean;
}

/** Words of shop talk that say nothing about which product (they stay out of the search). */
const FILLER = new Set(
  (
    'show me see looking look need needs want wanted find finding get getting buy buying have has got sell sells selling carry stock stocked ' +
    'something anything stuff thing things product products item items option options one ones some please thanks thank hi hello hey ' +
    'new good nice great really recommend recommendation recommendations suggest suggestion suggestions idea ideas help could would can ' +
    "do does did you your yours i im i'm my we us our what whats what's which any anyone there available availability price prices cost " +
    'costs size sizes sizing colour colours color colors another other different same more less also too just like else about instead ' +
    'gift gifts present presents cheap cheaper cheapest inexpensive affordable budget expensive pricey lower lowest bucks dollars dollar usd ' +
    'under below over above max maximum least most popular bestseller bestsellers best selling seller sellers top sale sales discount discounts ' +
    'discounted deal deals offer offers reduced clearance bargain bargains promo trending favourite favourites favorite favorites rated ' +
    'it them that this those these they ones if fit fits go with right now today currently please'
  ).split(/\s+/),
);

const MONEY = String.raw`\$?\s*(\d+(?:[.,]\d+)?)\s*(?:\$|dollars?|bucks|usd|eur|euros?|£|pounds?)?`;
const MAX_PRICE = [
  new RegExp(String.raw`\b(?:nothing|not|no)\s+(?:over|above|more than|higher than)\s*${MONEY}`, 'i'),
  new RegExp(
    String.raw`(?:\bunder|\bbelow|\bless than|\bcheaper than|\bup to|\bmax(?:imum)?|\bno more than|\bat most|\bwithin|\bbudget(?: of| is)?|<)\s*${MONEY}`,
    'i',
  ),
  new RegExp(String.raw`${MONEY}\s*(?:or|and)\s*(?:less|under|below|cheaper)\b`, 'i'),
];
const MIN_PRICE = new RegExp(String.raw`(?:\bover|\babove|\bmore than|\bat least|>)\s*${MONEY}`, 'i');
const SALE = /\b(?:on sale|sales?|discount(?:s|ed)?|deals?|special offers?|reduced|clearance|markdowns?|promo(?:tion)?s?|bargains?)\b/i;
const POPULAR =
  /\b(?:best[ -]?sell(?:ers?|ing)|most popular|popular|top[ -]?sell(?:ers?|ing)|trending|favou?rites?|most bought|best rated|top rated)\b/i;
const CHEAPEST = /\b(?:cheapest|lowest[- ]priced?|least expensive|most affordable|cheap|inexpensive|affordable)\b/i;
const CHEAPER = /\b(?:cheaper|less expensive|lower price|more affordable|something for less|too expensive|too pricey)\b/i;
const AVAILABILITY =
  /\b(?:in stock|available|availability|(?:another|other|different) colou?rs?|what colou?rs|which colou?rs|what sizes|which sizes|my size)\b/i;
const ANAPHORA = /\b(?:it|them|that one|this one|those|these|that|this)\b/i;
const SIZE_WORDS: Record<string, string[]> = {
  xs: ['extra small', 'x-small', 'xsmall'],
  s: ['small'],
  m: ['medium'],
  l: ['large'],
  xl: ['extra large', 'x-large', 'xlarge'],
  xxl: ['xx-large', 'xxlarge'],
};

/** The canonical size a shopper's size word names, when the catalog has it ("42", "xl", "large" → "L"). */
function catalogSize(facets: ShopFacets, raw: string): string | undefined {
  const w = raw.toLowerCase();
  if (facets.sizes.has(w)) return facets.sizes.get(w);
  for (const [code, names] of Object.entries(SIZE_WORDS)) {
    if (names.includes(w) && facets.sizes.has(code)) return facets.sizes.get(code);
  }
  return undefined;
}

function amount(raw: string): number {
  return Number(raw.replace(',', '.'));
}

/** Reads a message: its constraints (removed from the text) and the words left that name the product. */
export function parseShopRequest(facets: ShopFacets, message: string): ShopRequest {
  const req: ShopRequest = { subject: [] };
  let text = ` ${message} `;
  const cut = (m: RegExpExecArray) => {
    text = text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length);
  };
  if (facets.priceField) {
    for (const re of MAX_PRICE) {
      const m = re.exec(text);
      if (m) {
        req.maxPrice = amount(m[1]!);
        cut(m);
        break;
      }
    }
    const min = MIN_PRICE.exec(text);
    if (min) {
      req.minPrice = amount(min[1]!);
      cut(min);
    }
  }
  if (facets.sizeField) {
    let explicit = /\bsize\s+([a-z0-9][a-z0-9./-]*)/i.exec(text);
    const named =
      /\b(?:in|an?)\s+(?:an?\s+)?(extra small|extra large|small|medium|large|x-?small|x-?large|xx-?large|xxs|xs|s|m|l|xl|xxl|\d{1,3}(?:\.5)?)\b(?:\s*(?:waist|w))?/i.exec(
        text,
      );
    const waist = /\b(\d{2})\s*(?:waist|w)\b|\bwaist\s+(\d{2})\b/i.exec(text);
    if (explicit && !/^(?:\d|x*s$|m$|x*l$|small$|medium$|large$|extra$|x$)/i.test(explicit[1]!)) explicit = null;
    if (explicit) {
      const word = /^(extra|x)$/i.test(explicit[1]!) ? `${explicit[1]} ${/\bsize\s+\S+\s+(\S+)/i.exec(text)?.[1] ?? ''}` : explicit[1]!;
      req.size = catalogSize(facets, word.trim()) ?? word.toUpperCase();
      cut(explicit);
    } else if (waist) {
      req.size = catalogSize(facets, waist[1] ?? waist[2]!) ?? waist[1] ?? waist[2]!;
      cut(waist);
    } else if (named && catalogSize(facets, named[1]!)) {
      req.size = catalogSize(facets, named[1]!);
      cut(named);
    }
  }
  if (facets.departmentField && facets.departments.size) {
    for (const w of words(text)) {
      const value = departmentFor(facets, w);
      if (value) {
        req.department = value;
        text = text.replace(new RegExp(`\\b${w.replace(/[^\p{L}\p{N}]/gu, '.')}\\b`, 'iu'), ' ');
        break;
      }
    }
  }
  if ((facets.saleField || facets.compareAtField) && SALE.test(text)) req.sale = true;
  if ((facets.popularityField || facets.bestsellerField || facets.ratingField) && POPULAR.test(text)) req.popular = true;
  if (facets.priceField && CHEAPER.test(text)) req.cheaper = true;
  else if (facets.priceField && CHEAPEST.test(text)) req.cheapest = true;
  if (AVAILABILITY.test(text)) req.availability = true;
  if (ANAPHORA.test(text)) req.anaphora = true;
  for (const w of words(text)) {
    if (facets.colours.has(w) && !req.colour) {
      req.colour = w === 'gray' && !facets.colours.has('gray') ? 'grey' : w;
      continue;
    }
    if (req.subject.length === MAX_QUERY_TERMS) break;
    const single = w.length === 1 && !/\d/.test(w) && !facets.typeTerms.has(w);
    if (isStopword(w) || FILLER.has(w) || single || /^\d+$/.test(w)) continue;
    req.subject.push(adjectiveBase(facets, w));
  }
  if (req.subject.length === 2) {
    const all = words(message);
    const at = all.indexOf(req.subject[0]!);
    req.compound = at >= 0 && all[at + 1] === req.subject[1];
  }
  return req;
}

/** "rainy" → "rain", "sunny" → "sun", "windy" → "wind": the noun the catalog uses, when it does and not the adjective. */
function adjectiveBase(facets: ShopFacets, word: string): string {
  if (word.length < 5 || !word.endsWith('y') || facets.allTerms.has(processTerm(word) ?? '')) return word;
  const base = word.slice(0, -1);
  for (const candidate of [base, base.replace(/(.)\1$/, '$1')]) if (facets.allTerms.has(processTerm(candidate) ?? '')) return candidate;
  return word;
}

function departmentFor(facets: ShopFacets, word: string): string | undefined {
  const w = word.toLowerCase();
  for (const [valueRe, aliases] of DEPARTMENT_WORDS) {
    if (!aliases.includes(w)) continue;
    for (const [lower, value] of facets.departments) {
      if (valueRe.test(lower)) return value;
    }
  }
  return undefined;
}

/** Whether the words name something in the catalog (a product type word, or any catalog word for modifiers). */
export function namesProductType(facets: ShopFacets, subject: readonly string[]): boolean {
  return subject.some((w) => {
    const t = processTerm(w);
    return t !== null && facets.typeTerms.has(t);
  });
}

/** The later message refines the earlier request: its constraints replace or join the earlier ones. */
export function mergeRequests(earlier: ShopRequest, later: ShopRequest): ShopRequest {
  const out: ShopRequest = { ...earlier, subject: [...earlier.subject] };
  for (const w of later.subject) if (!out.subject.includes(w)) out.subject.push(w);
  for (const k of ['maxPrice', 'minPrice', 'colour', 'size', 'department'] as const) {
    if (later[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = later[k];
  }
  for (const k of ['sale', 'popular', 'cheapest', 'cheaper', 'availability', 'anaphora'] as const) out[k] = later[k] ?? undefined;
  if (later.subject.length) out.compound = undefined;
  if (later.sale) out.sale = true;
  else if (earlier.sale) out.sale = true;
  return out;
}

/** The request's constraints as search filters (colour and size also need the variant in stock). */
export function shopFilters(facets: ShopFacets, req: ShopRequest): Filter[] {
  const out: Filter[] = [];
  if (facets.priceField && req.maxPrice !== undefined) {
    out.push({ field: facets.priceField, kind: 'max', value: req.maxPrice, param: 'max_price' });
  }
  if (facets.priceField && req.minPrice !== undefined) {
    out.push({ field: facets.priceField, kind: 'min', value: req.minPrice, param: 'min_price' });
  }
  if (facets.colourField && req.colour) out.push({ field: facets.colourField, kind: 'eq', value: req.colour, param: 'colour' });
  if (facets.sizeField && req.size) out.push({ field: facets.sizeField, kind: 'eq', value: req.size, param: 'size' });
  if (facets.stockField && (req.colour || req.size)) out.push({ field: facets.stockField, kind: 'eq', value: true, param: 'in_stock' });
  return out;
}

/** Whether a record passes the request's constraints that are not plain field filters (department, sale). */
export function passesShop(facets: ShopFacets, req: ShopRequest, record: CatalogRecord): boolean {
  if (req.department && facets.departmentField) {
    const d = String(record[facets.departmentField] ?? '');
    const young = YOUNG.test(req.department);
    if (d.toLowerCase() !== req.department.toLowerCase() && (young || !EVERYONE.test(d))) return false;
  }
  if (req.sale && !onSale(facets, record)) return false;
  return true;
}

export function onSale(facets: ShopFacets, record: CatalogRecord): boolean {
  if (facets.saleField && record[facets.saleField] === true) return true;
  const was = facets.compareAtField ? record[facets.compareAtField] : undefined;
  const now = facets.priceField ? record[facets.priceField] : undefined;
  return typeof was === 'number' && typeof now === 'number' && was > now;
}

/** A record's popularity for ordering: units sold, else the bestseller flag, else the rating. */
export function popularity(facets: ShopFacets, record: CatalogRecord): number {
  const p = facets.popularityField ? record[facets.popularityField] : undefined;
  if (typeof p === 'number') return p;
  if (facets.bestsellerField && record[facets.bestsellerField] === true) return 1e6;
  const r = facets.ratingField ? record[facets.ratingField] : undefined;
  return typeof r === 'number' ? r : 0;
}

export function isBestseller(facets: ShopFacets, record: CatalogRecord): boolean {
  return facets.bestsellerField ? record[facets.bestsellerField] === true : true;
}

/** Whether the record's department is one for children (ranked after the others unless asked for). */
export function forYoung(facets: ShopFacets, record: CatalogRecord): boolean {
  const d = facets.departmentField ? record[facets.departmentField] : undefined;
  return typeof d === 'string' && YOUNG.test(d);
}

export function priceOf(facets: ShopFacets, record: CatalogRecord): number | undefined {
  const p = facets.priceField ? record[facets.priceField] : undefined;
  return typeof p === 'number' ? p : undefined;
}

/** In-stock values of a variant field (sizes or colours) of a record, in catalog order. */
export function inStockValues(facets: ShopFacets, record: CatalogRecord, field: string | null): string[] {
  if (!field) return [];
  const out: string[] = [];
  for (const v of record.variants ?? []) {
    const x: Scalar | undefined = v[field];
    if (x === undefined || x === null) continue;
    if (facets.stockField && v[facets.stockField] === false) continue;
    if (!out.includes(String(x))) out.push(String(x));
  }
  return out;
}
