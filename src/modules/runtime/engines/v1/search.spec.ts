import type { CatalogRecord, Scalar } from '../../../bundles/bundle.types.js';
import type { ParamValue } from '../../trace.types.js';
import { prepareV1 } from './prepare.js';
import { matches, runTool } from './search.js';

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

const search = (text: string, params: Array<[string, ParamValue]> = []) => runTool(tool, null, text, new Map(params));
const ids = (text: string, params: Array<[string, ParamValue]> = []) => search(text, params).hits.map((h) => h.record.id);

describe('v1 catalog search over 50,000 records', () => {
  it.each<[string, Array<[string, ParamValue]>, string]>([
    ['trail running shoes', [['budget', 150]], 'Running Shoe'],
    ['waterproof rain jacket', [['size', 'M']], 'Rain Jacket'],
    ['merino tee navy', [], 'Merino Tee'],
    ['merino tee', [['colour', 'navy']], 'Merino Tee'],
    ['hiking boots size 9 under 200', [], 'Hiking Boot'],
    ['lightweight daypack', [], 'Daypack'],
    ['shoe shoes', [], 'Running Shoe'],
    ['warm alpine jackets', [], 'Rain Jacket'],
    ['hikin boot', [], 'Hiking Boot'],
    ['waterprof jacket', [['colour', 'teal']], 'Rain Jacket'],
  ])('"%s" %j: every card is a %s meeting every filter', (text, params, noun) => {
    const run = search(text, params);
    expect(run.hits.length).toBe(3);
    for (const { record } of run.hits) {
      expect(String(record.name)).toContain(noun);
      expect(matches(record, run.filters)).toBe(true);
    }
  });

  it('holds the price, colour and size in stock the message gives', () => {
    const run = search('hiking boots size 9 under 200 in teal');
    expect(run.filters.map((f) => [f.field, f.kind, f.value])).toEqual(
      expect.arrayContaining([
        ['price', 'max', 200],
        ['colour', 'eq', 'teal'],
        ['size', 'eq', '9'],
        ['in_stock', 'eq', true],
      ]),
    );
    for (const { record } of run.hits) {
      expect(record.price as number).toBeLessThanOrEqual(200);
      expect(record.variants!.some((v) => v.colour === 'Teal' && v.size === '9' && v.in_stock)).toBe(true);
    }
  });

  it('answers words the catalog does not know as not carried, and impossible constraints as none', () => {
    expect(search('tennis racket').outcome?.kind).toBe('not_carried');
    expect(search('xyzzy plugh').outcome?.kind).toBe('not_carried');
    const none = search('sleeping bag', [['colour', 'purple']]);
    expect(none.hits).toEqual([]);
    expect(none.outcome?.kind).toBe('none');
  });

  it('is deterministic: ties keep catalog order', () => {
    expect(ids('merino tee', [['colour', 'navy']])).toEqual(ids('merino tee', [['colour', 'navy']]));
    const first = ids('trail running shoes', [['budget', 150]]);
    expect(first).toEqual(ids('trail running shoes', [['budget', 150]]));
  });
});
