import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { SEALED_KEY_BYTES, SealedBox } from './sealed-box.js';

/** A value sealed at rest: the id of the key that seals its data key, and data key ‖ value, each sealed. */
export interface Sealed {
  keyId: string;
  data: Buffer;
}

/** The key id of the key derived from JWT_SECRET: always there to open, and the sealing key when ENCRYPTION_KEYS is unset. */
export const JWT_DERIVED_KEY_ID = 'jwt';

/**
 * Envelope encryption of stored secrets (docs/security.md, "Encryption at rest"). Each value gets its own random data
 * key (a `SealedBox`); the data key is sealed by a key-encryption key from configuration: the first of
 * ENCRYPTION_KEYS (`id:base64 key`, …), or, when that is unset, one derived from JWT_SECRET (id `jwt`). Every listed
 * key, and the JWT_SECRET-derived one, still opens what it sealed, so keys rotate without downtime: put a new key
 * first, restart, re-seal the stored data keys (`npm run cli -- secrets:rewrap`), then drop the old key. Each use (the
 * `purpose`) derives its own key-encryption keys, and the caller's additional data ties a value to its row.
 */
@Injectable()
export class EncryptionKeys {
  /** The key new values are sealed with. */
  readonly currentId: string;
  private readonly material = new Map<string, string | Buffer>();
  private readonly boxes = new Map<string, SealedBox>();

  constructor(config: AppConfig) {
    for (const key of config.encryption.keys) this.material.set(key.id, key.key);
    if (!this.material.has(JWT_DERIVED_KEY_ID)) this.material.set(JWT_DERIVED_KEY_ID, config.auth.jwtSecret);
    this.currentId = config.encryption.keys[0]?.id ?? JWT_DERIVED_KEY_ID;
  }

  seal(purpose: string, plaintext: string, aad: string): Sealed {
    const dataKey = SealedBox.randomKey();
    const context = Buffer.from(aad, 'utf8');
    const data = Buffer.concat([
      this.keyBox(this.currentId, purpose)!.seal(dataKey, context),
      new SealedBox(dataKey).seal(plaintext, context),
    ]);
    return { keyId: this.currentId, data };
  }

  /** The value, or undefined when its key is not configured (any more) or the data was altered or moved to another row. */
  open(purpose: string, sealed: Sealed, aad: string): string | undefined {
    const context = Buffer.from(aad, 'utf8');
    const dataKey = this.openDataKey(purpose, sealed, context);
    return dataKey && new SealedBox(dataKey).open(sealed.data.subarray(SEALED_KEY_BYTES), context);
  }

  /** The same value with its data key sealed by the current key (the value itself is not decrypted); undefined as `open`. */
  rewrap(purpose: string, sealed: Sealed, aad: string): Sealed | undefined {
    const context = Buffer.from(aad, 'utf8');
    const dataKey = this.openDataKey(purpose, sealed, context);
    if (!dataKey) return undefined;
    const data = Buffer.concat([this.keyBox(this.currentId, purpose)!.seal(dataKey, context), sealed.data.subarray(SEALED_KEY_BYTES)]);
    return { keyId: this.currentId, data };
  }

  private openDataKey(purpose: string, sealed: Sealed, context: Buffer): Buffer | undefined {
    return this.keyBox(sealed.keyId, purpose)?.openBytes(sealed.data.subarray(0, SEALED_KEY_BYTES), context);
  }

  /** The key-encryption key of `keyId` for `purpose` (derived once), or undefined for an unknown key id. */
  private keyBox(keyId: string, purpose: string): SealedBox | undefined {
    const name = `${keyId}\u0000${purpose}`;
    let box = this.boxes.get(name);
    const material = this.material.get(keyId);
    if (!box && material !== undefined) {
      box = SealedBox.derive(material, `key-encryption:${purpose}`);
      this.boxes.set(name, box);
    }
    return box;
  }
}
