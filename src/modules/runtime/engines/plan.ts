import type { CardDto, TurnFacets } from '../runtime.types.js';
import type { Trace } from '../trace.types.js';

/** One passage or tool hit the model may use, numbered for the prompt. */
export interface MaterialSource {
  /** Stable id of the source within the revision (record or passage id): token counts are memoised by it. */
  key: string;
  marker: number;
  label: string;
  text: string;
}

/**
 * What an engine decided for one turn, before the wording is written. The builtin provider's wording is
 * `draft`; a model provider rewrites it from `material`, unless `fixed` (a guardrail or rule block, a
 * clarifying question, or "not in the knowledge base"), which is answered verbatim without a model call.
 */
export interface TurnPlan {
  runtime: 'v1' | 'v2';
  build: string;
  draft: string;
  fixed: boolean;
  /** Engine-specific instructions for the model (how to use the material, citation rules). */
  instructions: string;
  /** Numbered sources (v2 passages, v1 catalog hits) and other facts (rules, parameters). */
  sources: MaterialSource[];
  facts: string[];
  cards: CardDto[];
  intent: string | null;
  followups: string[];
  facets: TurnFacets;
  /** Builds the trace once the final text is known (v2 resolves citation markers against it). */
  finish(text: string, provider: string): Trace;
}
