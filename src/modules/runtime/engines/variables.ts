import type { TurnInput } from '../runtime.types.js';
import type { ParamScope, ParamValue } from '../trace.types.js';

export interface ComputedParam {
  code: string;
  title: string;
  scope: ParamScope;
  value: ParamValue;
}

/**
 * Agent variables as flat scalars: `{static, dynamic}` (messaging) or a free-form object (events webhook,
 * all dynamic). Nested objects flatten to dotted keys; arrays of scalars join with ", "; null is skipped.
 */
export function flattenVariables(input: TurnInput['agentVariables'] | undefined): {
  static: Map<string, ParamValue>;
  dynamic: Map<string, ParamValue>;
} {
  const out = { static: new Map<string, ParamValue>(), dynamic: new Map<string, ParamValue>() };
  if (!input || typeof input !== 'object') return out;
  const keys = Object.keys(input);
  const split =
    keys.length > 0 &&
    keys.every((k) => k === 'static' || k === 'dynamic') &&
    keys.every((k) => isObject((input as Record<string, unknown>)[k]));
  if (split) {
    const v = input as { static?: Record<string, unknown>; dynamic?: Record<string, unknown> };
    flattenInto(v.static, '', out.static);
    flattenInto(v.dynamic, '', out.dynamic);
  } else {
    flattenInto(input as Record<string, unknown>, '', out.dynamic);
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function flattenInto(obj: Record<string, unknown> | undefined, prefix: string, into: Map<string, ParamValue>, depth = 0): void {
  if (!obj || depth > 4) return;
  for (const [key, value] of Object.entries(obj)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || typeof value === 'boolean') into.set(name, value);
    else if (typeof value === 'number') {
      if (Number.isFinite(value)) into.set(name, value);
    } else if (Array.isArray(value)) {
      const scalars = value.filter((x) => ['string', 'number', 'boolean'].includes(typeof x));
      if (scalars.length) into.set(name, scalars.map(String).join(', '));
    } else if (isObject(value)) flattenInto(value, name, into, depth + 1);
  }
}

/** Typed conversion for extractors and variables that feed a typed parameter. */
export function coerce(raw: string, type: 'number' | 'string' | 'boolean'): ParamValue | undefined {
  if (type === 'number') {
    const cleaned = raw
      .replace(/[^0-9.,-]/g, '')
      .replace(/,(?=\d{3}(\D|$))/g, '')
      .replace(',', '.');
    const n = Number.parseFloat(cleaned);
    return Number.isFinite(n) ? n : undefined;
  }
  if (type === 'boolean') return !/^(no|not|false|0|off|none|without|n)$/i.test(raw.trim());
  const s = raw.trim();
  return s ? s : undefined;
}
