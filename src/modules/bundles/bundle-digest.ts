import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth (arrays keep their order): equal bundles give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** `sha256:` + hex SHA-256 of the bundle's canonical JSON. */
export function bundleDigest(bundle: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(bundle)).digest('hex')}`;
}
