import type { Scalar } from '../../bundles/bundle.types.js';

/** Escapes a value for a double-quoted JSX attribute (JSX has no backslash escapes: use entities). */
export function jsxAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\{/g, '&#123;')
    .replace(/\}/g, '&#125;');
}

/** A JSX prop name from a record field (`sale price` → `salePrice`); invalid names are dropped. */
export function propName(field: string): string | null {
  const camel = field.replace(/[^A-Za-z0-9_$]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9_$]/g, '');
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(camel) ? camel : null;
}

/** One prop: strings quoted and escaped, numbers/booleans/null and structured values as `{expression}`. */
export function jsxProp(name: string, value: Scalar | Array<Record<string, Scalar>>): string {
  if (typeof value === 'string') return `${name}="${jsxAttr(value)}"`;
  if (typeof value === 'number') return Number.isFinite(value) ? `${name}={${value}}` : `${name}={null}`;
  if (typeof value === 'boolean' || value === null) return `${name}={${String(value)}}`;
  // Arrays (variants): JSON is valid JS; escape "</" and braces cannot break out of the expression container.
  return `${name}={${JSON.stringify(value).replace(/</g, '\\u003c')}}`;
}

/** `<ProductCard title="…" price={89} isRecommended />` */
export function renderElement(component: string, props: Array<[string, Scalar | Array<Record<string, Scalar>>]>): string {
  const parts = [component];
  for (const [key, value] of props) {
    const name = propName(key);
    if (name && value !== undefined) parts.push(jsxProp(name, value));
  }
  return `<${parts.join(' ')} />`;
}

/** Component name from a collection name: `products` → `ProductCard`, `hotel_rooms` → `HotelRoomCard`. */
export function componentName(collection: string): string {
  const singular = collection.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
  const pascal = singular
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
  return `${/^[A-Z]/.test(pascal) ? pascal : 'Item'}Card`;
}
