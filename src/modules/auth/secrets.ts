import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'oak' | 'agk' | 'pk';

/** A new secret: a kind prefix and 256 random bits, e.g. `pk_Zm9v…`. Shown once, stored only as a hash. */
export function generateSecret(kind: SecretKind): string {
  return `${kind}_${randomBytes(32).toString('base64url')}`;
}

/** Hex SHA-256: secrets carry 256 bits of entropy, so a fast hash is the right tool (passwords use scrypt: passwords.ts). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The first characters of a secret, kept to tell keys apart in listings. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 12);
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
