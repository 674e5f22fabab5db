import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/governance.md "Audit log"): one row per management write, appended in the write's
 * transaction. Append-only even against bugs: a trigger refuses every UPDATE, and every DELETE while the record's
 * organization exists. Deleting an organization removes its records (ON DELETE CASCADE): the cascade runs after the
 * organization's row is gone, so the trigger lets it through. TRUNCATE (an operator's act) is not refused.
 */
export class AuditEvents1732242000000 implements MigrationInterface {
  name = 'AuditEvents1732242000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id              char(24)       PRIMARY KEY,
        organization_id char(24)       NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        created_at      timestamptz(3) NOT NULL DEFAULT now(),
        actor_kind      varchar(20)    NOT NULL,
        actor_id        varchar(100)   NOT NULL,
        actor_user_id   char(24),
        action          varchar(100)   NOT NULL,
        resource_type   varchar(50)    NOT NULL,
        resource_id     varchar(100)   NOT NULL,
        request_id      varchar(128),
        before          jsonb,
        after           jsonb
      )
    `);
    // Newest first per organization, and the same order under each filter.
    await q.query(`CREATE INDEX idx_audit_events_org_created ON audit_events (organization_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX idx_audit_events_org_resource ON audit_events (organization_id, resource_type, resource_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX idx_audit_events_org_actor ON audit_events (organization_id, actor_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX idx_audit_events_org_action ON audit_events (organization_id, action, created_at DESC, id DESC)`);
    await q.query(`
      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$
    `);
    await q.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
    await q.query(`DROP FUNCTION audit_events_append_only()`);
  }
}
