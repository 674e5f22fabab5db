import type { MigrationInterface, QueryRunner } from 'typeorm';
import { EncryptionKeys } from '../../common/crypto/encryption-keys.js';
import { loadConfig } from '../../config/app-config.js';
import { WebhookSecrets } from '../../modules/webhooks/webhook-secrets.js';

/**
 * Webhook signing secrets encrypted at rest (docs/webhooks.md, "Secret storage"): each clear-text secret (and previous
 * secret) is sealed with the configured encryption key (ENCRYPTION_KEYS, else the key derived from JWT_SECRET, read
 * from the environment as the service reads it) into `secret_sealed` with the key's id in `secret_key_id`; the
 * clear-text columns are dropped. `down` decrypts them back with the same keys.
 */
export class WebhookSecretsSealed1732242700000 implements MigrationInterface {
  name = 'WebhookSecretsSealed1732242700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN secret_key_id varchar(32), ADD COLUMN secret_sealed bytea,
        ADD COLUMN previous_secret_key_id varchar(32), ADD COLUMN previous_secret_sealed bytea
    `);
    const rows: Array<{ id: string; secret: string; previous_secret: string | null }> = await q.query(
      `SELECT id, secret, previous_secret FROM webhook_endpoints`,
    );
    if (rows.length > 0) {
      const secrets = secretsFromEnvironment();
      for (const row of rows) {
        const current = secrets.seal(row.id, row.secret);
        const previous = row.previous_secret === null ? null : secrets.seal(row.id, row.previous_secret);
        await q.query(
          `UPDATE webhook_endpoints SET secret_key_id = $2, secret_sealed = $3, previous_secret_key_id = $4, previous_secret_sealed = $5
            WHERE id = $1`,
          [row.id, current.keyId, current.data, previous?.keyId ?? null, previous?.data ?? null],
        );
      }
    }
    await q.query(`
      ALTER TABLE webhook_endpoints
        ALTER COLUMN secret_key_id SET NOT NULL, ALTER COLUMN secret_sealed SET NOT NULL,
        DROP COLUMN secret, DROP COLUMN previous_secret
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN secret varchar(100), ADD COLUMN previous_secret varchar(100)`);
    const rows: Array<{
      id: string;
      secret_key_id: string;
      secret_sealed: Buffer;
      previous_secret_key_id: string | null;
      previous_secret_sealed: Buffer | null;
    }> = await q.query(`SELECT id, secret_key_id, secret_sealed, previous_secret_key_id, previous_secret_sealed FROM webhook_endpoints`);
    if (rows.length > 0) {
      const secrets = secretsFromEnvironment();
      for (const row of rows) {
        await q.query(`UPDATE webhook_endpoints SET secret = $2, previous_secret = $3 WHERE id = $1`, [
          row.id,
          secrets.current(row.id, row),
          secrets.previous(row.id, row),
        ]);
      }
    }
    await q.query(`
      ALTER TABLE webhook_endpoints
        ALTER COLUMN secret SET NOT NULL,
        DROP COLUMN secret_key_id, DROP COLUMN secret_sealed, DROP COLUMN previous_secret_key_id, DROP COLUMN previous_secret_sealed
    `);
  }
}

/** The service's keys, from its environment; refuses a per-process random JWT_SECRET, which would lose every secret. */
function secretsFromEnvironment(): WebhookSecrets {
  const config = loadConfig();
  if (config.ephemeralJwtSecret && config.encryption.keys.length === 0) {
    throw new Error('webhook secrets are encrypted with ENCRYPTION_KEYS or a key derived from JWT_SECRET: set one of them to migrate');
  }
  return new WebhookSecrets(new EncryptionKeys(config));
}
