import secureJson from 'secure-json-parse';
import { ValidationError } from '../errors/app-error.js';
import { INPUT_LIMITS } from './input-limits.js';

/**
 * The one JSON parser for untrusted text (request bodies, WebSocket frames). In order, all linear in the input:
 * a depth scan that refuses deep nesting before any object is built (no stack overflow, no memory blow-up),
 * the prototype-poisoning-safe parse, then a walk that refuses strings PostgreSQL (or a json column) would refuse.
 * Failures are 422 `validation_error` naming the field.
 */
export function parseUntrustedJson(text: string, field = 'body', maxDepth: number = INPUT_LIMITS.jsonMaxDepth): unknown {
  assertDepthWithin(text, maxDepth, field);
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw ValidationError.field(field, `The ${field === 'body' ? 'request body' : field} is not valid JSON`);
  }
  assertStorableDocument(value, field);
  return value;
}

/** Refuses nesting deeper than `maxDepth` by counting brackets outside strings; never recurses. */
export function assertDepthWithin(text: string, maxDepth: number, field = 'body'): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth += 1;
      if (depth > maxDepth) throw ValidationError.field(field, `JSON nesting deeper than ${maxDepth} levels is not accepted`);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth -= 1;
    }
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or undefined: PostgreSQL refuses U+0000, and json columns refuse lone surrogates. */
export function unstorableReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain lone UTF-16 surrogates';
  return undefined;
}

/**
 * Throws a 422 naming the first string (key or value, at any depth) that cannot be stored. Iterative, so a value
 * that passed the depth scan cannot overflow the stack here either.
 */
export function assertStorable(value: unknown, field = 'body'): void {
  const found = firstUnstorable(value, field);
  if (found) throw ValidationError.field(found.field, `${found.field} ${found.reason}`);
}

/**
 * `assertStorable` for a whole document (a body, a frame, a query string, path parameters): what it holds is
 * named by its wire path (`text`, `agent_variables.static`, `tags[2]`), as the validation pipe names fields;
 * `name` stands for the document itself (a bare string, or a bad key at its top level).
 */
export function assertStorableDocument(value: unknown, name: string): void {
  const found = firstUnstorable(value, '');
  if (!found) return;
  const field = found.field === '' ? name : found.field;
  throw ValidationError.field(field, `${field} ${found.reason}`);
}

export function firstUnstorable(value: unknown, root: string): { field: string; reason: string } | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return { field: path, reason };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], `${path}[${i}]`]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const keyReason = unstorableReason(key);
        if (keyReason) return { field: path, reason: `has a key that ${keyReason}` };
        stack.push([child, path === '' ? key : `${path}.${key}`]);
      }
    }
  }
  return undefined;
}
