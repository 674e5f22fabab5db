import { RE2JS } from 're2js';
import { INPUT_LIMITS } from '../../common/validation/input-limits.js';
import { leadingChars } from '../../common/validation/char-length.js';

/**
 * Tenant patterns (guardrails, parameter extractors) in RE2 syntax, matched case-insensitively by a linear-time
 * engine (re2js, a pure-JS port of RE2): no backtracking, so no pattern and no message can stall the shared event
 * loop. RE2 has no backreferences and no lookaround; such patterns are refused when a bundle is pushed.
 */
export type TenantPattern = RE2JS;

export interface PatternMatch {
  /** Offset of the match in the text (UTF-16 code units, as String#slice counts). */
  index: number;
  /** The whole match. */
  text: string;
  /** Capture group 1, when the pattern has one and it took part in the match. */
  group1?: string;
}

/**
 * Memory each compiled pattern's lazy DFA may hold (re2js defaults to 8 MiB). A pattern built to explode into DFA
 * states (`(a|b)*a(a|b){14}`) otherwise keeps ~7 MiB per pattern alive for the life of its revision; at the cap
 * the DFA clears its cache and carries on, still linear, so memory stays ≤ 256 KiB × patterns per revision.
 */
export const PATTERN_DFA_MAX_BYTES = 256 * 1024;

/** Compiles a pattern; throws (re2js syntax error) when RE2 cannot run it. */
export function compileTenantPattern(source: string): TenantPattern {
  const pattern = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  const dfa = pattern.re2().dfa;
  dfa.maxMem = dfa.stateBudget = dfa.memBudget = PATTERN_DFA_MAX_BYTES;
  return pattern;
}

/** Why RE2 refuses a pattern, or null when it compiles. */
export function tenantPatternProblem(source: string): string | null {
  try {
    compileTenantPattern(source);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `is not a valid RE2 regular expression (no backreferences or lookaround): ${reason}`;
  }
}

/**
 * The part of a text a pattern is run on: its first patternInputMaxChars characters (code points, as the message
 * limit counts, so a guardrail always sees a whole valid message), so the work per pattern is bounded whatever
 * the surface let through.
 */
export function patternInput(text: string): string {
  return leadingChars(text, INPUT_LIMITS.patternInputMaxChars);
}

export function testTenantPattern(pattern: TenantPattern, text: string): boolean {
  return pattern.test(patternInput(text));
}

/** The first match in the (bounded) text, or null. */
export function findTenantPattern(pattern: TenantPattern, text: string): PatternMatch | null {
  const input = patternInput(text);
  // test() runs RE2's DFA alone, several times faster than extracting groups; most messages match no extractor.
  if (!pattern.test(input)) return null;
  const m = pattern.exec(input) as (Array<string | undefined> & { index: number }) | null;
  if (!m) return null;
  return { index: m.index, text: m[0] ?? '', group1: m[1] ?? undefined };
}
