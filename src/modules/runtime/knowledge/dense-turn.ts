import type { V2DenseRetrieval } from '../trace.types.js';
import { fuseWithDense, type DenseRanking } from './dense-index.js';

/** Entries of the fused order the trace shows. */
const FUSED_IN_TRACE = 10;

/**
 * Applies a turn's dense ranking to the engine's lexical candidates (best first): with `used`, the candidates become the
 * fused order, with dense-only passages made by `candidate` and every score the fused one; with `failed` or none, the
 * lexical order stands. Returns the order and the trace section.
 */
export function applyDenseRanking<P extends { id: string }, R extends { passage: P; score: number }>(
  ranked: R[],
  dense: DenseRanking | undefined,
  passages: readonly P[],
  candidate: (passage: P) => R,
): { ranked: R[]; trace: V2DenseRetrieval | null } {
  if (!dense) return { ranked, trace: null };
  if (dense.status === 'failed') {
    return {
      ranked,
      trace: { status: 'failed', model: dense.model, reason: dense.reason, held: dense.held, min_similarity: null, fused: [] },
    };
  }
  const position = new Map(passages.map((p, i) => [p, i]));
  const byPosition = new Map(ranked.map((r) => [position.get(r.passage)!, r]));
  const fused = fuseWithDense([...byPosition.keys()], dense);
  return {
    ranked: fused.map((f) => ({ ...(byPosition.get(f.position) ?? candidate(passages[f.position]!)), score: f.score })),
    trace: {
      status: 'used',
      model: dense.model,
      reason: null,
      held: false,
      min_similarity: dense.minSimilarity,
      fused: fused.slice(0, FUSED_IN_TRACE).map(({ position: at, score, lexical_rank, dense_rank, similarity }) => ({
        passage_id: passages[at]!.id,
        score: Math.round(score * 10000) / 10000,
        lexical_rank,
        dense_rank,
        similarity,
      })),
    },
  };
}

/** One sentence of the narrative about dense retrieval, or '' when it took no part. */
export function denseNarrative(trace: V2DenseRetrieval | null): string {
  if (!trace) return '';
  if (trace.status === 'failed') {
    const why = trace.held ? `it was not called: ${trace.reason}` : trace.reason;
    return `The embeddings model ${trace.model} could not be used (${why}), so passages were ranked lexically, by their words alone.`;
  }
  const alone = trace.fused.filter((f) => f.lexical_rank === null).length;
  return `Passages were also ranked by the embeddings model ${trace.model} and the two rankings fused (reciprocal rank fusion)${alone ? `; ${alone} of the top passages came from the embeddings alone` : ''}.`;
}
