import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * Authenticated encryption of small values at rest: AES-256-GCM, a random 96-bit IV per value, and additional data
 * the caller chooses (the row the value belongs to), so a sealed value cannot be moved to another row. Layout:
 * IV ‖ tag ‖ ciphertext. Used directly for idempotent replies (a key derived from JWT_SECRET) and, with key ids and a
 * data key per value, by `EncryptionKeys` for stored secrets (docs/security.md, "Encryption at rest").
 */
export class SealedBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`a sealed box needs a ${KEY_BYTES}-byte key`);
    this.key = key;
  }

  /** A box whose key is derived from `material` with HKDF-SHA256 under `label`, so the key serves that use only. */
  static derive(material: string | Buffer, label: string): SealedBox {
    return new SealedBox(Buffer.from(hkdfSync('sha256', material, 'agent-service', label, KEY_BYTES)));
  }

  /** A random key for one value (envelope encryption's data key). */
  static randomKey(): Buffer {
    return randomBytes(KEY_BYTES);
  }

  seal(plaintext: string | Buffer, aad: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** The plaintext, or undefined when the data was not sealed with this key (or for other additional data) or was altered. */
  openBytes(sealed: Buffer, aad: Buffer): Buffer | undefined {
    if (sealed.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  /** `openBytes` as UTF-8 text. */
  open(sealed: Buffer, aad: Buffer): string | undefined {
    return this.openBytes(sealed, aad)?.toString('utf8');
  }
}

/** The bytes a sealed data key takes before the value in an envelope (IV ‖ tag ‖ 32-byte key). */
export const SEALED_KEY_BYTES = IV_BYTES + TAG_BYTES + KEY_BYTES;
