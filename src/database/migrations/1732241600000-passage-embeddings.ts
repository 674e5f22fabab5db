import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passage vectors of knowledge bundles that name an embeddings model (docs/knowledge.md), computed once per
 * revision: keyed by the revision's digest and the hash of the embedded text, so a restart, another instance or a
 * republish finds them. `model` is the model key (name, and `@size` when a size was requested): a new revision reuses
 * the vectors of unchanged passages embedded by the same model under any digest (the reuse index).
 */
export class PassageEmbeddings1732241600000 implements MigrationInterface {
  name = 'PassageEmbeddings1732241600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE passage_embeddings (
        revision_digest varchar(71) NOT NULL,
        passage_hash char(64) NOT NULL,
        model varchar(220) NOT NULL,
        dimensions integer NOT NULL CHECK (dimensions > 0),
        embedding bytea NOT NULL CHECK (octet_length(embedding) = 4 * dimensions),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (revision_digest, passage_hash)
      )
    `);
    await q.query(`CREATE INDEX passage_embeddings_reuse ON passage_embeddings (model, passage_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE passage_embeddings`);
  }
}
