import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CharLength, charCount, IsMessageText, leadingChars, MaxChars } from './char-length.js';
import { INPUT_LIMITS } from './input-limits.js';

class Body {
  @CharLength(2, 5) name: string;
  @MaxChars(3, { each: true }) tags: string[];
  @IsMessageText() text: string;
}

const failed = (plain: Partial<Body>) =>
  validateSync(plainToInstance(Body, { name: 'ab', tags: [], text: 'hi', ...plain })).map((e) => [
    e.property,
    ...Object.values(e.constraints ?? {}),
  ]);

describe('charCount', () => {
  it('counts code points: astral characters once, variation selectors and lone surrogates each', () => {
    expect(charCount('')).toBe(0);
    expect(charCount('abc')).toBe(3);
    expect(charCount('😀😀')).toBe(2);
    expect(charCount('a\uFE0F')).toBe(2);
    expect(charCount('\uD800a')).toBe(2);
  });
});

describe('CharLength / MaxChars / IsMessageText', () => {
  it('accepts values within the bounds in code points', () => {
    expect(failed({ name: '😀😀😀😀😀', tags: ['abc', '😀😀😀'], text: '😀'.repeat(INPUT_LIMITS.messageMaxChars) })).toEqual([]);
  });

  it('counts what class-validator Length skips (U+FE0F)', () => {
    expect(failed({ name: 'abcd\uFE0F\uFE0F' })).toEqual([['name', 'name must be 2 to 5 characters']]);
  });

  it('refuses too short, too long, non-strings and each array item', () => {
    expect(failed({ name: 'a' })).toEqual([['name', 'name must be 2 to 5 characters']]);
    expect(failed({ name: 42 as never })).toEqual([['name', 'name must be 2 to 5 characters']]);
    expect(failed({ tags: ['ok', 'long'] })).toEqual([['tags', 'each value in tags must be at most 3 characters']]);
  });

  it(`bounds a message to ${INPUT_LIMITS.messageMaxChars} characters and refuses an empty one`, () => {
    expect(failed({ text: 'a'.repeat(INPUT_LIMITS.messageMaxChars + 1) })).toEqual([
      ['text', `text must be 1 to ${INPUT_LIMITS.messageMaxChars} characters`],
    ]);
    expect(failed({ text: `${'a'.repeat(INPUT_LIMITS.messageMaxChars)}\uFE0F` })).toHaveLength(1);
    expect(failed({ text: '' })).toHaveLength(1);
  });

  it('cuts to the first characters by code point, never half a surrogate pair', () => {
    expect(leadingChars('abc', 5)).toBe('abc');
    expect(leadingChars('\u{1F600}\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}');
    expect(leadingChars('a\u{1F600}b', 2)).toBe('a\u{1F600}');
    expect(charCount(leadingChars('\u{1F600}'.repeat(20_000), INPUT_LIMITS.messageMaxChars))).toBe(INPUT_LIMITS.messageMaxChars);
  });
});
