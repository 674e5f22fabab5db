import { Injectable } from '@nestjs/common';
import { SqlService } from '../../../database/sql.service.js';

export interface StoredVector {
  hash: string;
  vector: Float32Array;
}

/** The passage_embeddings table: the only code that reads or writes it. */
@Injectable()
export class PassageEmbeddingsRepository {
  constructor(private readonly sql: SqlService) {}

  /** The vectors stored for this revision and model, among `hashes`. */
  async load(digest: string, model: string, hashes: readonly string[]): Promise<StoredVector[]> {
    const rows = await this.sql.rows<{ passage_hash: string; embedding: Buffer }>(
      `SELECT passage_hash, embedding FROM passage_embeddings WHERE revision_digest = $1 AND model = $2 AND passage_hash = ANY($3)`,
      [digest, model, hashes],
    );
    return rows.map((r) => ({ hash: r.passage_hash, vector: fromBytes(r.embedding) }));
  }

  /**
   * Copies into this revision the vectors the same model already made for any of `hashes` under other revisions
   * (an upload or push that changed a few documents re-embeds only those). Returns how many were copied.
   */
  async reuse(digest: string, model: string, hashes: readonly string[]): Promise<number> {
    const rows = await this.sql.rows(
      `INSERT INTO passage_embeddings (revision_digest, passage_hash, model, dimensions, embedding)
       SELECT DISTINCT ON (passage_hash) $1::varchar, passage_hash, model, dimensions, embedding
         FROM passage_embeddings
        WHERE model = $2::varchar AND passage_hash = ANY($3::char(64)[]) AND revision_digest <> $1::varchar
       ON CONFLICT (revision_digest, passage_hash) DO NOTHING
       RETURNING passage_hash`,
      [digest, model, hashes],
    );
    return rows.length;
  }

  /** Stores vectors; one already stored (another instance got there first) is kept. */
  async save(digest: string, model: string, vectors: readonly StoredVector[]): Promise<void> {
    if (!vectors.length) return;
    await this.sql.rows(
      `INSERT INTO passage_embeddings (revision_digest, passage_hash, model, dimensions, embedding)
       SELECT $1::varchar, h, $2::varchar, d, e FROM unnest($3::text[], $4::int[], $5::bytea[]) AS v(h, d, e)
       ON CONFLICT (revision_digest, passage_hash) DO NOTHING`,
      [digest, model, vectors.map((v) => v.hash), vectors.map((v) => v.vector.length), vectors.map((v) => toBytes(v.vector))],
    );
  }
}

function toBytes(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

function fromBytes(bytes: Buffer): Float32Array {
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
