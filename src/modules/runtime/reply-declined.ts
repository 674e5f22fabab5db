import type { Trace } from './trace.types.js';

/**
 * Whether a reply declined: v1 — the response is a `block` (a guardrail or a block rule); v2 — the `answerable` check
 * failed (nothing in the knowledge answers) or the model's reply says the passages do not answer. A thread whose last
 * agent reply declined has the outcome `declined` (docs/evaluations.md); a test case's `declines` checks it.
 */
export function replyDeclined(trace: Trace): boolean {
  if (trace.runtime === 'v1') return trace.response.type === 'block';
  return trace.checks.some((check) => check.name === 'answerable' && !check.passed) || trace.model_decline?.declined === true;
}
