import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.js';

/** JSON with object keys sorted at every level, so that key order does not change a request's fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const sha256 = (...parts: string[]): Buffer => {
  const hash = createHash('sha256');
  // Each part is length-prefixed: no two different part lists hash the same input.
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest();
};

/** Who the key belongs to: the credential (a key, a publishable key, a user's session as one agent), in its organization. */
export function credentialScope(principal: Principal): string {
  switch (principal.kind) {
    case 'orgKey':
      return `${principal.organizationId}/ok:${principal.keyId}`;
    case 'agentKey':
      return `${principal.organizationId}/ak:${principal.keyId}`;
    case 'clientToken':
      return `${principal.organizationId}/pk:${principal.publishableKeyId}`;
    case 'session':
      return `${principal.organizationId}/user:${principal.userId}:${principal.agentId ?? ''}`;
  }
}

/** The row's key: SHA-256 over the credential scope, the route (method and path template) and the key. */
export function keyHash(scope: string, route: string, key: string): Buffer {
  return sha256('key', scope, route, key);
}

/** What makes a repeat "the same request": SHA-256 over the method, the path as sent (ids included) and the canonical body. */
export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return sha256('request', method, path, canonicalJson(body));
}
