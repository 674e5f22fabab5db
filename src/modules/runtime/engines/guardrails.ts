import type { Guardrail } from '../../bundles/bundle.types.js';

export interface CompiledGuardrail {
  code: string;
  message: string;
  patterns: RegExp[];
  sources: string[];
}

export interface GuardrailVerdict {
  passed: boolean;
  reason: string;
  code?: string;
  message?: string;
  pattern?: string;
}

/** Compiles every pattern once (case-insensitive, Unicode). A pattern that does not compile is skipped. */
export function compileGuardrails(guardrails: Guardrail[] | undefined): CompiledGuardrail[] {
  return (guardrails ?? []).map((g) => {
    const patterns: RegExp[] = [];
    const sources: string[] = [];
    for (const p of g.patterns ?? []) {
      try {
        patterns.push(new RegExp(p, 'iu'));
        sources.push(p);
      } catch {
        try {
          patterns.push(new RegExp(p, 'i'));
          sources.push(p);
        } catch {
          /* validated on push; an old bundle with a bad pattern must not break every turn */
        }
      }
    }
    return { code: g.code, message: g.message, patterns, sources };
  });
}

export function checkGuardrails(compiled: CompiledGuardrail[], text: string | undefined): GuardrailVerdict {
  if (text) {
    for (const g of compiled) {
      for (let i = 0; i < g.patterns.length; i += 1) {
        if (g.patterns[i]!.test(text)) {
          return { passed: false, reason: `guardrail ${g.code} matched /${g.sources[i]}/i`, code: g.code, message: g.message, pattern: g.sources[i] };
        }
      }
    }
  }
  return { passed: true, reason: compiled.length ? `none of ${compiled.length} guardrail(s) matched` : 'no guardrails configured' };
}
