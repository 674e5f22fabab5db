import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Stored first responses are encrypted at rest: some carry secrets shown once (create key answers the key itself).
 * AES-256-GCM with a key derived from JWT_SECRET (HKDF-SHA256, its own info string, so the key is used for nothing
 * else); the row's key hash is the additional data, so a body cannot be moved to another row. Layout: IV ‖ tag ‖
 * ciphertext. Every instance derives the same key from the shared JWT_SECRET (which they share for tokens already).
 */
export class ResponseCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'agent-service', 'idempotency-response-v1', 32));
  }

  seal(plaintext: string, aad: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** The plaintext, or undefined when the data was not sealed with this key (another JWT_SECRET) or was altered. */
  open(sealed: Buffer, aad: Buffer): string | undefined {
    if (sealed.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
