import { hkdfSync, randomBytes } from 'node:crypto';
import { loadConfig } from '../../config/app-config.js';
import { EncryptionKeys } from './encryption-keys.js';
import { SealedBox } from './sealed-box.js';

const keys = (value?: string) =>
  new EncryptionKeys(loadConfig({ JWT_SECRET: 'secret-one-0123456789abcdef0123456789', ENCRYPTION_KEYS: value }));
const K1 = `k1:${randomBytes(32).toString('base64')}`;
const K2 = `k2:${randomBytes(32).toString('base64')}`;

describe('SealedBox', () => {
  const aad = Buffer.alloc(32, 1);
  it('opens what it sealed, and nothing sealed under another key, for another row or altered', () => {
    const box = SealedBox.derive('secret-one-0123456789abcdef0123456789', 'idempotency-response-v1');
    const sealed = box.seal('{"api_key":"ak_secret"}', aad);
    expect(sealed.includes(Buffer.from('ak_secret'))).toBe(false);
    expect(box.open(sealed, aad)).toBe('{"api_key":"ak_secret"}');
    expect(SealedBox.derive('secret-two-0123456789abcdef0123456789', 'idempotency-response-v1').open(sealed, aad)).toBeUndefined();
    expect(box.open(sealed, Buffer.alloc(32, 2))).toBeUndefined();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(box.open(altered, aad)).toBeUndefined();
  });

  it('derives the key idempotent replies were sealed with before (HKDF-SHA256 of JWT_SECRET, same label)', () => {
    const legacyKey = Buffer.from(
      hkdfSync('sha256', 'secret-one-0123456789abcdef0123456789', 'agent-service', 'idempotency-response-v1', 32),
    );
    const sealed = new SealedBox(legacyKey).seal('reply', Buffer.alloc(1));
    expect(SealedBox.derive('secret-one-0123456789abcdef0123456789', 'idempotency-response-v1').open(sealed, Buffer.alloc(1))).toBe(
      'reply',
    );
  });
});

describe('EncryptionKeys', () => {
  it('seals with the first configured key and records its id; the value is tied to its purpose and row', () => {
    const ring = keys(`${K1},${K2}`);
    const sealed = ring.seal('webhook', 'whsec_abc', 'row-1');
    expect(sealed.keyId).toBe('k1');
    expect(sealed.data.includes(Buffer.from('whsec_abc'))).toBe(false);
    expect(ring.open('webhook', sealed, 'row-1')).toBe('whsec_abc');
    expect(ring.open('webhook', sealed, 'row-2')).toBeUndefined();
    expect(ring.open('other-purpose', sealed, 'row-1')).toBeUndefined();
    expect(ring.open('webhook', { keyId: 'k2', data: sealed.data }, 'row-1')).toBeUndefined();
  });

  it('keeps opening with old keys, re-seals the data key with the current one, and opens nothing of a dropped key', () => {
    const before = keys(K1).seal('webhook', 'whsec_abc', 'row-1');
    const during = keys(`${K2},${K1}`);
    expect(during.open('webhook', before, 'row-1')).toBe('whsec_abc');
    const rewrapped = during.rewrap('webhook', before, 'row-1')!;
    expect(rewrapped.keyId).toBe('k2');
    expect(keys(K2).open('webhook', rewrapped, 'row-1')).toBe('whsec_abc');
    expect(keys(K2).open('webhook', before, 'row-1')).toBeUndefined();
    expect(keys(K2).rewrap('webhook', before, 'row-1')).toBeUndefined();
  });

  it('without ENCRYPTION_KEYS seals with the key derived from JWT_SECRET (id jwt), which keeps opening once keys are set', () => {
    const sealed = keys().seal('webhook', 'whsec_abc', 'row-1');
    expect(sealed.keyId).toBe('jwt');
    expect(keys(K1).open('webhook', sealed, 'row-1')).toBe('whsec_abc');
  });

  it('refuses malformed ENCRYPTION_KEYS at start-up', () => {
    for (const bad of [
      'k1',
      'k1:short',
      `jwt:${randomBytes(32).toString('base64')}`,
      `${K1},${K1}`,
      `bad id:${randomBytes(32).toString('base64')}`,
    ]) {
      expect(() => keys(bad)).toThrow(/ENCRYPTION_KEYS/);
    }
  });
});
