import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt from node:crypto (no native addon, so nothing to build or load at install or start), stored
 * as PHC strings `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` (unpadded base64). Parameters: OWASP's scrypt choice with
 * 32 MiB per hash (N=2^15, r=8, p=3). Hashes written before by the `argon2` package (`$argon2id$…`) still verify,
 * through @node-rs/argon2 (prebuilt per platform, loaded only when such a hash is met), and are reported outdated so
 * the login that proved the password stores a scrypt hash instead (docs/security.md, "Passwords").
 */
const CURRENT = { ln: 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Bounds on a stored hash's parameters: a corrupt or hostile row cannot make a login allocate gigabytes. */
const MAX = { ln: 20, r: 16, p: 16 } as const;
const SCRYPT_PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

export interface PasswordCheck {
  valid: boolean;
  /** The password matched a hash of an older scheme or other parameters: store `hashPassword(password)` instead. */
  outdated: boolean;
}

function scryptKey(password: string, salt: Buffer, ln: number, r: number, p: number, length: number): Promise<Buffer> {
  const N = 2 ** ln;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptKey(password, salt, CURRENT.ln, CURRENT.r, CURRENT.p, KEY_BYTES);
  return `$scrypt$ln=${CURRENT.ln},r=${CURRENT.r},p=${CURRENT.p}$${b64(salt)}$${b64(key)}`;
}

export async function verifyPassword(stored: string, password: string): Promise<PasswordCheck> {
  if (stored.startsWith('$argon2')) return verifyLegacyArgon2(stored, password);
  const match = SCRYPT_PHC.exec(stored);
  if (!match) return { valid: false, outdated: false };
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 1 || ln > MAX.ln || r < 1 || r > MAX.r || p < 1 || p > MAX.p) return { valid: false, outdated: false };
  const expected = Buffer.from(match[5]!, 'base64');
  const key = await scryptKey(password, Buffer.from(match[4]!, 'base64'), ln, r, p, expected.length);
  const valid = timingSafeEqual(key, expected);
  return { valid, outdated: valid && (ln !== CURRENT.ln || r !== CURRENT.r || p !== CURRENT.p) };
}

async function verifyLegacyArgon2(stored: string, password: string): Promise<PasswordCheck> {
  const argon2 = await import('@node-rs/argon2');
  let valid: boolean;
  try {
    valid = await argon2.verify(stored, password);
  } catch {
    valid = false; // not a PHC string argon2 can read
  }
  return { valid, outdated: valid };
}
