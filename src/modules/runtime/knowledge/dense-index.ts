import { createHash } from 'node:crypto';
import type { EmbeddingsSettings } from '../../bundles/bundle.types.js';
import { reciprocalRankFusion } from './rank-fusion.js';

/** Cosine similarity a passage needs to join the fused ranking on dense evidence alone (bundle `embeddings.min_similarity`). */
export const DEFAULT_MIN_SIMILARITY = 0.3;
/** Dense hits that take part in the fusion (the lexical side offers its own top list). */
export const DENSE_CANDIDATES = 20;

/** What is embedded for a passage: its title and text, so a passage keeps the context its title gives it. */
export function passageInput(passage: { title: string; text: string }): string {
  return `${passage.title}\n\n${passage.text}`;
}

/** The key of a passage's vector in the store: sha256 hex of what is embedded. */
export function passageHash(input: string): string {
  return createHash('sha256').update(input).digest('hex');
}

/** The model key vectors are stored and reused under: the model name, and the requested size when one is set. */
export function modelKey(settings: EmbeddingsSettings): string {
  return settings.dimensions !== undefined ? `${settings.model}@${settings.dimensions}` : settings.model;
}

/** One revision's passage vectors, unit length, row by row in passage order. */
export class DenseIndex {
  private readonly matrix: Float32Array;

  constructor(
    readonly model: string,
    readonly dimensions: number,
    vectors: readonly Float32Array[],
  ) {
    this.matrix = new Float32Array(vectors.length * dimensions);
    vectors.forEach((v, row) => this.matrix.set(normalized(v), row * dimensions));
  }

  get size(): number {
    return this.dimensions ? this.matrix.length / this.dimensions : 0;
  }

  /** Memory the vectors take. */
  get bytes(): number {
    return this.matrix.byteLength;
  }

  /** Passage positions by cosine similarity to `query`, best first, at most `limit` (brute force: a revision holds thousands, not millions). */
  rank(query: Float32Array, limit: number): DenseHit[] {
    if (query.length !== this.dimensions) return [];
    const q = normalized(query);
    const scores: DenseHit[] = [];
    for (let row = 0, offset = 0; row < this.size; row += 1, offset += this.dimensions) {
      let dot = 0;
      for (let i = 0; i < this.dimensions; i += 1) dot += q[i]! * this.matrix[offset + i]!;
      scores.push({ position: row, similarity: dot });
    }
    return scores.sort((a, b) => b.similarity - a.similarity || a.position - b.position).slice(0, limit);
  }
}

export interface DenseHit {
  /** The passage's position in the revision's passage list. */
  position: number;
  similarity: number;
}

/**
 * What dense retrieval contributed to one turn, for the engine and the trace: `used` with the hits, or why it did
 * not take part (`not_configured`: the bundle names no embeddings model; `failed`: the provider failed now or when
 * the passages were to be embedded, and the turn ranked lexically; `held`: the provider was not called, because it
 * failed for this revision less than the hold ago).
 */
export type DenseRanking =
  | { status: 'used'; model: string; hits: DenseHit[]; minSimilarity: number }
  | { status: 'failed'; model: string; reason: string; held: boolean };

/** One entry of the fused ranking, as the trace shows it. */
export interface FusedPassage {
  position: number;
  score: number;
  lexical_rank: number | null;
  dense_rank: number | null;
  similarity: number | null;
}

/**
 * Reciprocal rank fusion of the lexical ranking (passage positions, best first, already filtered for relevance) with
 * the dense hits that reach `minSimilarity`: a passage the question paraphrases can join on dense evidence alone, and
 * the order of the rest follows both rankings.
 */
export function fuseWithDense(lexical: readonly number[], dense: Extract<DenseRanking, { status: 'used' }>): FusedPassage[] {
  const similarity = new Map(dense.hits.map((h) => [h.position, h.similarity]));
  const denseList = dense.hits.filter((h) => h.similarity >= dense.minSimilarity).map((h) => h.position);
  return reciprocalRankFusion([lexical, denseList]).map((f) => ({
    position: f.item,
    score: f.score,
    lexical_rank: f.ranks[0] ?? null,
    dense_rank: f.ranks[1] ?? null,
    similarity: similarity.has(f.item) ? round(similarity.get(f.item)!) : null,
  }));
}

function normalized(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm === 0) return v;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 1) out[i] = v[i]! / norm;
  return out;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
