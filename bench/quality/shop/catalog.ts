import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CatalogRecord, Scalar } from '../../../src/modules/bundles/bundle.types.js';

/** Size groups the catalog lines name instead of listing sizes. */
const SIZE_GROUPS: Record<string, string[]> = {
  SHOE: ['38', '39', '40', '41', '42', '43', '44', '45', '46'],
  KIDSHOE: ['28', '29', '30', '31', '32', '33', '34', '35'],
  APPAREL: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  WAIST: ['28', '30', '32', '34', '36', '38'],
  KIDS: ['4Y', '6Y', '8Y', '10Y', '12Y'],
  ONE: ['One size'],
};

/** A small deterministic hash (FNV-1a), so stock is the same on every run and machine. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * bench/quality/shop/catalog.txt as catalog records in the shopping template's format (id, name, category, brand,
 * price, currency, rating, description, colours, sizes, url, variants[] of sku/colour/size/price/in_stock), plus
 * the fields a shop keeps for merchandising: `department`, `on_sale` with `compare_at_price`, `popularity` (units
 * sold in the last 30 days) and `bestseller` (the top eighth by popularity). About one variant in seven is out of
 * stock, chosen by hash.
 */
export function loadShopCatalog(root: string): CatalogRecord[] {
  const file = fileURLToPath(new URL('bench/quality/shop/catalog.txt', `file://${root.endsWith('/') ? root : `${root}/`}`));
  const rows: Array<{ fields: string[]; popularity: number }> = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const fields = line.split('|').map((f) => f.trim());
    if (fields.length !== 12) throw new Error(`catalog.txt: expected 12 fields: ${line}`);
    rows.push({ fields, popularity: Number(fields[7]) });
  }
  const ranked = rows.map((r) => r.popularity).sort((a, b) => b - a);
  const bestsellerFloor = ranked[Math.floor(ranked.length / 8)]!;
  return rows.map(({ fields, popularity }) => {
    const [id, name, category, department, brand, price, was, , rating, colours, sizes, description] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const colourList = colours.split(';');
    const sizeList = SIZE_GROUPS[sizes] ?? sizes.split(';');
    const variants: Array<Record<string, Scalar>> = [];
    for (const colour of colourList) {
      for (const size of sizeList) {
        const sku = `${id}-${colour}-${size}`.toUpperCase().replace(/\s+/g, '');
        variants.push({ sku, colour, size, price: Number(price), in_stock: hash(sku) % 7 !== 0 });
      }
    }
    const onSale = was !== '-';
    return {
      id,
      name,
      category,
      department,
      brand,
      price: Number(price),
      ...(onSale ? { compare_at_price: Number(was) } : {}),
      on_sale: onSale,
      currency: 'USD',
      popularity,
      bestseller: popularity >= bestsellerFloor,
      rating: Number(rating),
      description,
      colours: colourList.join(', '),
      sizes: sizeList.join(', '),
      url: `https://harborandpine.example.com/products/${id}`,
      variants,
    };
  });
}
