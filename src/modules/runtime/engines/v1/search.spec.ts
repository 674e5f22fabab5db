import MiniSearch, { type SearchResult } from 'minisearch';
import type { CatalogRecord, Scalar } from '../../../bundles/bundle.types.js';
import { processTerm, tokenize } from '../../text/terms.js';
import type { ParamValue } from '../../trace.types.js';
import { extractField, prepareV1, VARIANTS_FIELD } from './prepare.js';
import { matches, runTool, type Filter } from './search.js';

/** A deterministic 50,000-record catalog in the shape of bench/engines.ts's (many records tie on score). */
function catalog(n: number): CatalogRecord[] {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const adjectives = ['Trail', 'Road', 'Summit', 'Storm', 'Alpine', 'Urban', 'Coastal', 'Ridge'];
  const types = [
    { noun: 'Running Shoe', category: 'Footwear', sizes: ['8', '9', '10'] },
    { noun: 'Hiking Boot', category: 'Footwear', sizes: ['9', '10', '11'] },
    { noun: 'Rain Jacket', category: 'Outerwear', sizes: ['S', 'M', 'L'] },
    { noun: 'Merino Tee', category: 'Tops', sizes: ['S', 'M'] },
    { noun: 'Daypack', category: 'Bags', sizes: ['One size'] },
    { noun: 'Sleeping Bag', category: 'Camping', sizes: ['Regular', 'Long'] },
  ];
  const colours = ['Black', 'Navy', 'Olive', 'Red', 'Teal'];
  const features = ['waterproof membrane', 'recycled fabric', 'lightweight build', 'breathable mesh', 'zip pockets'];
  return Array.from({ length: n }, (_, i) => {
    const type = pick(types);
    const price = Math.round(15 + random() * 400);
    const shades = [...new Set([pick(colours), pick(colours)])];
    const variants: Array<Record<string, Scalar>> = shades.flatMap((colour) =>
      type.sizes.map((size) => ({ sku: `P${i}-${colour}-${size}`, colour, size, in_stock: random() > 0.2 })),
    );
    return {
      id: `p-${i + 1}`,
      name: `${pick(adjectives)} ${type.noun} ${i + 1}`,
      category: type.category,
      price,
      description: `${type.noun} with ${pick(features)} and ${pick(features)}.`,
      colours: shades.join(', '),
      variants,
    };
  });
}

const v1 = prepareV1({
  tools: [
    {
      code: 'catalog_search',
      type: 'catalog_search',
      collection: 'products',
      title_field: 'name',
      fields: ['name', 'category', 'description', 'price', 'colours'],
      max_results: 3,
    },
  ],
  collections: { products: catalog(50_000) },
});
const tool = v1.tools[0]!;

/** The catalog index as it was before the posting lists: MiniSearch over the same fields, boosts and terms. */
const previousIndex = new MiniSearch<CatalogRecord>({
  idField: 'id',
  fields: ['name', 'category', 'description', 'price', 'colours', VARIANTS_FIELD],
  tokenize,
  processTerm: (term) => processTerm(term),
  extractField,
  searchOptions: { boost: { name: 2, [VARIANTS_FIELD]: 0.5 }, combineWith: 'OR' },
});
previousIndex.addAll(tool.records);
const byId = new Map(tool.records.map((r) => [r.id, r]));

/** The search as it was before the posting lists: the index's results, filtered and ranked in one scan. */
function previousScan(query: string, filters: Filter[]): string[] {
  const wanted = new Set(
    query
      .split(' ')
      .map((w) => processTerm(w))
      .filter(Boolean),
  );
  let results: SearchResult[] = previousIndex.search(query);
  if (!results.length || new Set(results.flatMap((r) => r.queryTerms)).size < wanted.size) {
    results = previousIndex.search(query, { prefix: (t: string) => t.length >= 4, fuzzy: (t: string) => (t.length >= 6 ? 0.2 : false) });
  }
  const candidates = results
    .map((r) => ({ record: byId.get(String(r.id))!, score: r.score, covered: new Set(r.queryTerms).size }))
    .filter((c) => matches(c.record, filters));
  const bestCovered = Math.max(0, ...candidates.map((c) => c.covered));
  const needed = wanted.size >= 3 ? Math.max(1, bestCovered - 1) : bestCovered;
  const topScore = Math.max(0, ...candidates.map((c) => c.score));
  return candidates
    .filter((c) => c.covered === bestCovered || (c.covered >= needed && c.score >= topScore * 0.3))
    .sort((a, b) => b.covered - a.covered || b.score - a.score)
    .slice(0, 3)
    .map((c) => c.record.id);
}

const search = (text: string, params: Array<[string, ParamValue]> = []) => runTool(tool, null, text, new Map(params));
const ids = (text: string, params: Array<[string, ParamValue]> = []) => search(text, params).hits.map((h) => h.record.id);

describe('v1 catalog search over 50,000 records', () => {
  it.each<[string, Array<[string, ParamValue]>]>([
    ['trail running shoes 150', []],
    ['trail running shoes', [['budget', 150]]],
    ['waterproof rain jacket', [['size', 'M']]],
    ['merino tee navy', []],
    ['merino tee', [['colour', 'navy']]],
    [
      'hiking boots size 9 200',
      [
        ['size', '9'],
        ['budget', 200],
      ],
    ],
    ['lightweight daypack', []],
    ['recycled breathable mesh zip pockets', []],
    ['red black', [['min_price', 380]]],
    ['sleeping bag', [['colour', 'purple']]],
    ['shoe shoes', []],
    ['summit 4242', []],
    ['warm alpine jackets', []],
    ['hikin boot', []],
    ['waterprof jacket', [['colour', 'teal']]],
    ['xyzzy', []],
  ])('"%s" %j gives the answer of the previous scan', (text, params) => {
    const run = search(text, params);
    expect(run.hits.map((h) => h.record.id)).toEqual(previousScan(run.query, run.filters));
  });

  it('ranks the expected records, ties in catalog order', () => {
    const trail = search('trail running shoes 150').hits.map((h) => h.record);
    expect(trail.map((r) => r.id)).toEqual(['p-11563', 'p-25745', 'p-46479']);
    expect(trail.every((r) => String(r.name).startsWith('Trail Running Shoe') && r.price === 150)).toBe(true);
    expect(ids('merino tee', [['colour', 'navy']])).toEqual(['p-31', 'p-47', 'p-172']);
  });
});
