import { jest } from '@jest/globals';
import { ValidationError } from '../errors/app-error.js';
import { INPUT_LIMITS } from './input-limits.js';
import { assertDepthWithin, assertStorableDocument, firstUnstorable, parseUntrustedJson, unstorableReason } from './safe-json.js';

/** The 422 a call throws, for assertions on its details. */
function rejection(call: () => unknown): ValidationError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

const fieldOf = (call: () => unknown) => rejection(call).details?.map((d) => d.field);

describe('parseUntrustedJson', () => {
  afterEach(() => jest.restoreAllMocks());

  it('parses ordinary JSON', () => {
    expect(parseUntrustedJson('{"name":"a","tags":["x",{"y":[1,null,true]}]}')).toEqual({ name: 'a', tags: ['x', { y: [1, null, true] }] });
    expect(parseUntrustedJson('"\\ud83d\\ude00 paired surrogates are fine"')).toBe('😀 paired surrogates are fine');
  });

  it(`accepts ${INPUT_LIMITS.jsonMaxDepth} levels of nesting and refuses one more`, () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(() => parseUntrustedJson(nested(INPUT_LIMITS.jsonMaxDepth))).not.toThrow();
    expect(fieldOf(() => parseUntrustedJson(nested(INPUT_LIMITS.jsonMaxDepth + 1)))).toEqual(['body']);
    expect(fieldOf(() => parseUntrustedJson(`{"a":${'{"b":'.repeat(64)}1${'}'.repeat(64)}}`))).toEqual(['body']);
  });

  it('refuses deep nesting before JSON.parse builds anything, however long the input', () => {
    const parse = jest.spyOn(JSON, 'parse');
    expect(fieldOf(() => parseUntrustedJson('['.repeat(1_000_000)))).toEqual(['body']);
    expect(fieldOf(() => parseUntrustedJson('{"a":'.repeat(100_000)))).toEqual(['body']);
    expect(parse).not.toHaveBeenCalled();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseUntrustedJson(JSON.stringify({ text: '[['.repeat(1000) + '\\"{{{' }))).toEqual({ text: '[['.repeat(1000) + '\\"{{{' });
    expect(() => assertDepthWithin('"\\"[[["' + '[]', 1)).not.toThrow();
  });

  it('names the field of a NUL or lone surrogate at any depth, in values and keys, as the validation pipe does', () => {
    expect(fieldOf(() => parseUntrustedJson('{"name":"a\\u0000b"}'))).toEqual(['name']);
    expect(fieldOf(() => parseUntrustedJson('{"a":{"b":[{"c":"ok"},{"c":"x\\ud800"}]}}'))).toEqual(['a.b[1].c']);
    expect(fieldOf(() => parseUntrustedJson('{"a":["\\udc00"]}'))).toEqual(['a[0]']);
    expect(fieldOf(() => parseUntrustedJson('{"a":{"k\\u0000":1}}'))).toEqual(['a']);
    expect(fieldOf(() => parseUntrustedJson('{"\\ud800":1}'))).toEqual(['body']);
    expect(fieldOf(() => parseUntrustedJson('"\\u0000"', 'frame'))).toEqual(['frame']);
    expect(fieldOf(() => parseUntrustedJson('[1,"\\u0000"]'))).toEqual(['[1]']);
  });

  it('refuses prototype poisoning and malformed JSON as an invalid body', () => {
    for (const text of ['{"__proto__":{"admin":true}}', '{"a":{"constructor":{"prototype":{"admin":true}}}}', '{"a":', '']) {
      const error = rejection(() => parseUntrustedJson(text));
      expect(error.details).toEqual([{ field: 'body', message: 'The request body is not valid JSON' }]);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('unstorableReason and firstUnstorable', () => {
  it('tells NUL from lone surrogates and accepts paired ones', () => {
    expect(unstorableReason('a\u0000')).toMatch(/NUL/);
    expect(unstorableReason('\ud800')).toMatch(/surrogate/);
    expect(unstorableReason('x\udfff')).toMatch(/surrogate/);
    expect(unstorableReason('\ud83d\ude00')).toBeUndefined();
  });

  it('prefixes paths with the root it is given (a DTO field)', () => {
    expect(firstUnstorable({ cart: ['a', 'b\u0000'] }, 'agent_variables')).toEqual({
      field: 'agent_variables.cart[1]',
      reason: expect.any(String),
    });
    expect(firstUnstorable({ ok: 'fine' }, 'agent_variables')).toBeUndefined();
  });

  it('walks a very wide and deep value without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(firstUnstorable(deep, 'v')?.field).toBe(`v${'[0]'.repeat(10_000)}`);
    expect(
      firstUnstorable(
        Array.from({ length: 100_000 }, () => 'ok'),
        'v',
      ),
    ).toBeUndefined();
  });

  it('names a document by its wire paths (assertStorableDocument)', () => {
    expect(fieldOf(() => assertStorableDocument({ user_id: 'a\u0000' }, 'query'))).toEqual(['user_id']);
    expect(fieldOf(() => assertStorableDocument({ 'a\u0000': 'b' }, 'query'))).toEqual(['query']);
    expect(() => assertStorableDocument({ user_id: ['a', 'b'] }, 'query')).not.toThrow();
  });
});
