import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events are claimed from PostgreSQL by the workers themselves, under leases they renew (docs/events.md,
 * "Processing"): `lease_owner` names the worker process holding a `processing` event (with `locked_until`, the
 * lease's expiry, renewed every third of EVENTS_LEASE_MS); `takeovers` counts the claims made under an expired
 * lease (a worker that died or stalled); `trace_context` carries the accept's W3C trace context to the processing
 * (null while tracing is off), which the Bull job used to carry. `enqueued_at` served the stale-job sweep, which the
 * workers' own claims replace.
 */
export class EventLeases1732242800000 implements MigrationInterface {
  name = 'EventLeases1732242800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events
        ADD COLUMN lease_owner varchar(100),
        ADD COLUMN takeovers integer NOT NULL DEFAULT 0,
        ADD COLUMN trace_context jsonb,
        DROP COLUMN enqueued_at
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events
        ADD COLUMN enqueued_at timestamptz(3) NOT NULL DEFAULT now(),
        DROP COLUMN trace_context,
        DROP COLUMN takeovers,
        DROP COLUMN lease_owner
    `);
  }
}
