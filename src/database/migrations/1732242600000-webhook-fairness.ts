import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery fairness and subscription versions (docs/webhooks.md):
 * - a claim finds the organizations with due deliveries by a skip scan (organization, then due time, of the pending
 *   rows) and counts each one's attempts in flight (rows a worker holds: `locked_until` set; an index of their own,
 *   which holds only the rows being sent);
 * - each organization's subscriptions carry a version, bumped in the transaction of every endpoint change, so that a
 *   process never replaces a newer in-memory snapshot with an older one.
 */
export class WebhookFairness1732242600000 implements MigrationInterface {
  name = 'WebhookFairness1732242600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX ix_webhook_deliveries_org_due ON webhook_deliveries (organization_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(`CREATE INDEX ix_webhook_deliveries_in_flight ON webhook_deliveries (organization_id) WHERE locked_until IS NOT NULL`);
    await q.query(`
      CREATE TABLE webhook_subscription_versions (
        organization_id char(24) PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        version bigint NOT NULL
      )
    `);
    await q.query(
      `INSERT INTO webhook_subscription_versions (organization_id, version) SELECT DISTINCT organization_id, 1 FROM webhook_endpoints`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_subscription_versions`);
    await q.query(`DROP INDEX ix_webhook_deliveries_in_flight`);
    await q.query(`DROP INDEX ix_webhook_deliveries_org_due`);
  }
}
