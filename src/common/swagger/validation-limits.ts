import { getMetadataStorage } from 'class-validator';

/** Where @nestjs/swagger keeps a documented property's schema (DECORATORS.API_MODEL_PROPERTIES). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

type Schema = Record<string, unknown>;
interface Rule {
  name?: string;
  target: unknown;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
}

/** The JSON Schema keywords a validator's bound states (on the value, or on each item for `each`). */
function keywordsOf(rule: Rule): Schema {
  const [a, b] = (rule.constraints ?? []) as [unknown, unknown];
  switch (rule.name ?? '') {
    case 'charLength':
      return { ...(Number(a) > 0 ? { minLength: a } : {}), maxLength: b };
    case 'maxLength':
      return { maxLength: a };
    case 'minLength':
      return { minLength: a };
    case 'isLength':
      return { minLength: a, ...(b === undefined ? {} : { maxLength: b }) };
    case 'min':
      return { minimum: a };
    case 'max':
      return { maximum: a };
    case 'arrayMaxSize':
      return { maxItems: a };
    case 'arrayMinSize':
      return { minItems: a };
    default: {
      // A pattern (Matches, or a validator that names its pattern as a constraint) bounds the length when it has no
      // unbounded repetition: `^v\d{1,9}\.\d{1,9}$` is at most 20 characters.
      const pattern = (rule.constraints ?? []).find((c): c is RegExp => c instanceof RegExp);
      const longest = pattern ? longestMatch(pattern.source) : undefined;
      return longest === undefined ? {} : { maxLength: longest };
    }
  }
}

/**
 * States in the OpenAPI document the limits the validators enforce (docs/api.md): every documented property of a
 * validated class gets the `maxLength`/`minLength`, `maxItems`/`minItems` and `minimum`/`maximum` its class-validator
 * rules (CharLength, MaxChars, Min, Max, ArrayMaxSize, fixed-length patterns such as ids…) imply, and integers a `format` their bounds
 * allow, unless its own decorator already says so. The validators stay the one source of truth: a limit is written
 * once, where it is enforced. Idempotent; run before the document is built.
 */
export function documentValidationLimits(): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, Rule[]> };
  for (const [target, rules] of storage.validationMetadatas) {
    if (typeof target !== 'function') continue;
    const prototype = (target as { prototype: object }).prototype;
    for (const rule of rules) {
      const documented = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, rule.propertyName) as Schema | undefined;
      if (!documented) continue;
      const keywords = keywordsOf(rule);
      if (Object.keys(keywords).length === 0) continue;
      // On an array, @nestjs/swagger moves the value keywords (lengths, bounds) into `items` itself.
      const merged: Schema = { ...documented };
      for (const [keyword, value] of Object.entries(keywords)) if (merged[keyword] === undefined) merged[keyword] = value;
      Reflect.defineMetadata(API_MODEL_PROPERTIES, merged, prototype, rule.propertyName);
    }
  }
  for (const [target] of storage.validationMetadatas) {
    if (typeof target === 'function') integerFormats((target as { prototype: object }).prototype);
  }
}

/** An integer without a format gets int32 when its bounds fit, else int64. */
function integerFormats(prototype: object): void {
  const keys = (Reflect.getMetadata('swagger/apiModelPropertiesArray', prototype) as string[] | undefined) ?? [];
  for (const key of keys.map((k) => k.slice(1))) {
    const schema = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, key) as Schema | undefined;
    if (!schema || schema.type !== 'integer' || schema.format !== undefined) continue;
    const fits =
      typeof schema.minimum === 'number' &&
      typeof schema.maximum === 'number' &&
      schema.minimum >= INT32_MIN &&
      schema.maximum <= INT32_MAX;
    Reflect.defineMetadata(API_MODEL_PROPERTIES, { ...schema, format: fits ? 'int32' : 'int64' }, prototype, key);
  }
}

/**
 * The longest string an anchored pattern matches, or undefined when it is unbounded (`*`, `+`, `{n,}`) or uses what
 * this reader does not follow (backreferences, lookaround). Reads literals, escapes, classes, groups with
 * alternation, and the `?`, `{n}`, `{m,n}` quantifiers.
 */
export function longestMatch(source: string): number | undefined {
  let i = 0;
  const sequence = (): number | undefined => {
    let best = 0;
    let total = 0;
    while (i < source.length && source[i] !== ')') {
      if (source[i] === '|') {
        i += 1;
        best = Math.max(best, total);
        total = 0;
        continue;
      }
      const atom = atomLength();
      if (atom === undefined) return undefined;
      const times = quantifier();
      if (times === undefined) return undefined;
      total += atom * times;
    }
    return Math.max(best, total);
  };
  const atomLength = (): number | undefined => {
    const c = source[i]!;
    if (c === '^' || c === '$') {
      i += 1;
      return 0;
    }
    if (c === '\\') {
      if (/[1-9bBk]/.test(source[i + 1] ?? '')) return undefined;
      i += 2;
      return 1;
    }
    if (c === '[') {
      i += 1;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i += 1;
      return 1;
    }
    if (c === '(') {
      i += 1;
      if (source[i] === '?') {
        if (source[i + 1] !== ':') return undefined;
        i += 2;
      }
      const inner = sequence();
      i += 1;
      return inner;
    }
    i += 1;
    return 1;
  };
  const quantifier = (): number | undefined => {
    const c = source[i];
    if (c === '*' || c === '+') return undefined;
    if (c === '?') {
      i += 1;
      return 1;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) return 1;
      i += m[0].length;
      if (m[2] !== undefined && m[3] === '') return undefined;
      return Number(m[3] ?? m[1]);
    }
    return 1;
  };
  const result = sequence();
  return i >= source.length ? result : undefined;
}
