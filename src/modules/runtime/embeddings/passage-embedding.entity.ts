import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A passage's vector under one revision (migration PassageEmbeddings1732241600000). Read and written by PassageEmbeddingsRepository. */
@Entity({ name: 'passage_embeddings' })
export class PassageEmbeddingEntity {
  @PrimaryColumn({ name: 'revision_digest', type: 'varchar', length: 71 })
  revisionDigest: string;

  /** sha256 hex of the embedded text (title and passage text). */
  @PrimaryColumn({ name: 'passage_hash', type: 'char', length: 64 })
  passageHash: string;

  /** Model name, plus `@size` when the bundle requested a vector size. */
  @Column({ type: 'varchar', length: 220 })
  model: string;

  @Column({ type: 'integer' })
  dimensions: number;

  /** float32 little-endian, `dimensions` of them. */
  @Column({ type: 'bytea' })
  embedding: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
