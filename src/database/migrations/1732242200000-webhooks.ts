import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks (docs/webhooks.md): the endpoints a project subscribes, one delivery row per message and
 * endpoint (the outbox: written in the transaction of the change it reports, then enqueued), and the per-thread
 * sequence every message about a thread carries.
 */
export class Webhooks1732242200000 implements MigrationInterface {
  name = 'Webhooks1732242200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        project_id char(24) NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        url varchar(2048) NOT NULL,
        description varchar(500) NOT NULL DEFAULT '',
        events text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason varchar(500),
        secret varchar(100) NOT NULL,
        previous_secret varchar(100),
        previous_secret_expires_at timestamptz(3),
        consecutive_failures integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )
    `);
    await q.query(`CREATE INDEX ix_webhook_endpoints_project ON webhook_endpoints (project_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_webhook_endpoints_organization ON webhook_endpoints (organization_id) WHERE enabled`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id char(24) PRIMARY KEY,
        endpoint_id char(24) NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        organization_id char(24) NOT NULL,
        event_type varchar(40) NOT NULL,
        thread_id char(24),
        sequence bigint,
        body text NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        attempt_log jsonb NOT NULL DEFAULT '[]',
        last_status_code integer,
        last_error varchar(500),
        last_latency_ms integer,
        next_attempt_at timestamptz(3),
        locked_until timestamptz(3),
        delivered_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )
    `);
    await q.query(`CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    // Thread erasure and retention delete a thread's deliveries with it.
    await q.query(`CREATE INDEX ix_webhook_deliveries_thread ON webhook_deliveries (thread_id) WHERE thread_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE webhook_thread_sequences (
        thread_id char(24) PRIMARY KEY REFERENCES threads (id) ON DELETE CASCADE,
        last_sequence bigint NOT NULL
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_thread_sequences`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
