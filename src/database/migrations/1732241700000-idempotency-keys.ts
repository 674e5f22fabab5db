import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys (docs/idempotency.md): one row per (credential scope, route, key), hashed into `key_hash`. A row
 * is `running` under a lease while its first request runs (a crashed request's lease expires and the key can be
 * taken over), then `completed` with the first response (encrypted) until `expires_at` (24 h by default).
 * `resource_id` is the id reserved for what the first request creates (the events webhook's event id), so a
 * takeover after a crash creates the same resource again, never a second one.
 */
export class IdempotencyKeys1732241700000 implements MigrationInterface {
  name = 'IdempotencyKeys1732241700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        key_hash bytea PRIMARY KEY CHECK (octet_length(key_hash) = 32),
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 32),
        state varchar(16) NOT NULL CHECK (state IN ('running', 'completed')),
        lease_token char(32) NOT NULL,
        lease_expires_at timestamptz NOT NULL,
        resource_id char(24) NOT NULL,
        response_status smallint,
        response_kind varchar(8) CHECK (response_kind IN ('json', 'sse')),
        response_body bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CHECK (state = 'running' OR (response_status IS NOT NULL AND response_kind IS NOT NULL AND response_body IS NOT NULL))
      )
    `);
    await q.query(`CREATE INDEX ix_idempotency_keys_expires_at ON idempotency_keys (expires_at)`);
    await q.query(`CREATE INDEX ix_idempotency_keys_organization_id ON idempotency_keys (organization_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
