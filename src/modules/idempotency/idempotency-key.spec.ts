import { canonicalJson, requestFingerprint } from './fingerprint.js';
import { parseIdempotencyKey } from './idempotency-key.js';

describe('parseIdempotencyKey', () => {
  it('accepts the bare and the Structured Field string forms as the same key', () => {
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('  "a \\"quoted\\" \\\\ key"  ')).toBe('a "quoted" \\ key');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['empty quoted', '""'],
    ['over 255 characters', 'k'.repeat(256)],
    ['over 255 characters quoted', `"${'k'.repeat(256)}"`],
    ['NUL', 'a\u0000b'],
    ['a control character', 'a\u0001b'],
    ['a tab inside', 'a\tb'],
    ['a byte over 0x7f', 'caf\u00e9'],
    ['an unterminated quoted string', '"abc'],
    ['characters after the quoted string', '"abc"def'],
    ['an invalid escape', '"a\\nb"'],
  ])('refuses %s with a validation error naming the header', (_name, value) => {
    expect(() => parseIdempotencyKey(value)).toThrow(
      expect.objectContaining({ status: 422, details: [expect.objectContaining({ field: 'Idempotency-Key' })] }),
    );
  });
});

describe('request fingerprint', () => {
  it('ignores object key order at every level, not array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(requestFingerprint('POST', '/p', { a: 1, b: 2 }).equals(requestFingerprint('POST', '/p', { b: 2, a: 1 }))).toBe(true);
    expect(requestFingerprint('POST', '/p', [1, 2]).equals(requestFingerprint('POST', '/p', [2, 1]))).toBe(false);
    expect(requestFingerprint('POST', '/p/a', {}).equals(requestFingerprint('POST', '/p/b', {}))).toBe(false);
  });
});
