import type { Rule } from '../../../bundles/bundle.types.js';
import type { ParamValue } from '../../trace.types.js';

export interface RuleEval {
  rule: Rule;
  triggered: boolean;
  present: boolean;
  value: ParamValue | undefined;
  computation: string;
  method: string;
}

export const OP_METHOD: Record<Rule['when']['op'], string> = {
  '<': 'less_than',
  '<=': 'less_than_or_equal',
  '>': 'greater_than',
  '>=': 'greater_than_or_equal',
  '=': 'equals',
  exists: 'exists',
};

export function evaluateRule(rule: Rule, params: Map<string, ParamValue>): RuleEval {
  const { param, op, value } = rule.when;
  const actual = params.get(param);
  const present = actual !== undefined;
  const method = OP_METHOD[op] ?? op;
  if (op === 'exists') {
    const wanted = value === false ? false : true;
    return {
      rule,
      present,
      value: actual,
      triggered: present === wanted,
      method,
      computation: `${param} ${wanted ? 'exists' : 'is missing'} → ${present === wanted}`,
    };
  }
  if (!present) return { rule, present, value: actual, triggered: false, method, computation: `${param} is not computed → false` };
  // An "ask" is pointless when everything it asks for is already known.
  if (rule.action === 'ask' && rule.asking_for?.length && rule.asking_for.every((p) => params.has(p))) {
    return {
      rule,
      present,
      value: actual,
      triggered: false,
      method,
      computation: `${param} (${String(actual)}) ${op} ${String(value)}, but ${rule.asking_for.join(', ')} already known → false`,
    };
  }
  let triggered = false;
  const a = typeof actual === 'number' ? actual : typeof actual === 'string' && /^-?\d+(\.\d+)?$/.test(actual) ? Number(actual) : actual;
  const b = value;
  if (op === '=') {
    triggered = typeof a === 'string' || typeof b === 'string' ? String(a).toLowerCase() === String(b).toLowerCase() : a === b;
  } else if (typeof a === 'number' && typeof b === 'number') {
    triggered = op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  return { rule, present, value: actual, triggered, method, computation: `${param} (${String(actual)}) ${op} ${String(b)} → ${triggered}` };
}
