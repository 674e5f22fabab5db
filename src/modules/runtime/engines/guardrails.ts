import { compileTenantPattern, testTenantPattern, type TenantPattern } from '../../bundles/bundle-pattern.js';
import type { Guardrail } from '../../bundles/bundle.types.js';

export interface CompiledGuardrail {
  code: string;
  message: string;
  patterns: TenantPattern[];
  sources: string[];
}

export interface GuardrailVerdict {
  passed: boolean;
  reason: string;
  code?: string;
  message?: string;
  pattern?: string;
}

/**
 * Compiles every pattern once per revision on the linear-time engine (case-insensitive, RE2 syntax). A pattern
 * it cannot compile is skipped: pushes refuse them, but a revision stored before that check must still answer.
 */
export function compileGuardrails(guardrails: Guardrail[] | undefined): CompiledGuardrail[] {
  return (guardrails ?? []).map((g) => {
    const patterns: TenantPattern[] = [];
    const sources: string[] = [];
    for (const p of g.patterns ?? []) {
      try {
        patterns.push(compileTenantPattern(p));
        sources.push(p);
      } catch {
        /* refused on push since the RE2 engine; skipped in older revisions */
      }
    }
    return { code: g.code, message: g.message, patterns, sources };
  });
}

export function checkGuardrails(compiled: CompiledGuardrail[], text: string | undefined): GuardrailVerdict {
  if (text) {
    for (const g of compiled) {
      for (let i = 0; i < g.patterns.length; i += 1) {
        if (testTenantPattern(g.patterns[i]!, text)) {
          return {
            passed: false,
            reason: `guardrail ${g.code} matched /${g.sources[i]}/i`,
            code: g.code,
            message: g.message,
            pattern: g.sources[i],
          };
        }
      }
    }
  }
  return { passed: true, reason: compiled.length ? `none of ${compiled.length} guardrail(s) matched` : 'no guardrails configured' };
}
