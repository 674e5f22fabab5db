import { applyDecorators } from '@nestjs/common';
import { buildMessage, IsString, ValidateBy, type ValidationOptions } from 'class-validator';
import { INPUT_LIMITS } from './input-limits.js';

/**
 * Length in Unicode code points: what PostgreSQL's varchar(n) and JSON Schema's maxLength count. class-validator's
 * Length/MaxLength do not count a character followed by U+FE0E/U+FE0F, so a value they accept could overflow its
 * varchar column (a 500) or carry an unbounded tail of selectors past a documented limit.
 */
export function charCount(value: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < value.length - 1; i += 1) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs += 1;
        i += 1;
      }
    }
  }
  return value.length - surrogatePairs;
}

/**
 * The first `max` characters (code points) of `value`, never half of a surrogate pair: how every bound on the
 * text that work sees (patterns, search words, recorded excerpts) cuts, counted as the message limit counts.
 */
export function leadingChars(value: string, max: number): string {
  if (value.length <= max) return value;
  let units = 0;
  for (let chars = 0; chars < max && units < value.length; chars += 1) {
    const c = value.charCodeAt(units);
    const next = value.charCodeAt(units + 1);
    units += c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return value.slice(0, units);
}

/** A string of `min`..`max` characters (code points); a mismatch is a 422 naming the field. */
export const CharLength = (min: number, max: number, options: ValidationOptions = {}) =>
  ValidateBy(
    {
      name: 'charLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const count = charCount(value);
          return count >= min && count <= max;
        },
        defaultMessage: buildMessage(
          (each) => `${each}$property must be ${min === 0 ? `at most ${max}` : min === max ? `${max}` : `${min} to ${max}`} characters`,
          options,
        ),
      },
    },
    options,
  );

/** A string of at most `max` characters (code points). */
export const MaxChars = (max: number, options: ValidationOptions = {}) => CharLength(0, max, options);

/** An end-user message: a non-empty string of at most INPUT_LIMITS.messageMaxChars characters, on every surface. */
export const IsMessageText = () => applyDecorators(IsString(), CharLength(1, INPUT_LIMITS.messageMaxChars));
