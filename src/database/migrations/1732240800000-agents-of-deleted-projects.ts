import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a project now deletes its agents with their versions and keys (docs/security.md). Projects deleted
 * before that left live agents whose keys still worked: give them the same end. Irreversible by nature.
 */
export class AgentsOfDeletedProjects1732240800000 implements MigrationInterface {
  name = 'AgentsOfDeletedProjects1732240800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TEMPORARY TABLE orphaned_agents ON COMMIT DROP AS
        SELECT a.id FROM agents a JOIN projects p ON p.id = a.project_id
         WHERE p.deleted_at IS NOT NULL AND a.deleted_at IS NULL`);
    await q.query(`
      UPDATE agents SET deleted_at = now(), live_version_id = NULL, live_revision_id = NULL, live_version_tag = NULL, updated_at = now()
       WHERE id IN (SELECT id FROM orphaned_agents)`);
    await q.query(`DELETE FROM agent_versions WHERE agent_id IN (SELECT id FROM orphaned_agents)`);
    await q.query(`DELETE FROM publishable_keys WHERE agent_id IN (SELECT id FROM orphaned_agents)`);
    await q.query(`DELETE FROM agent_api_keys WHERE agent_id IN (SELECT id FROM orphaned_agents)`);
  }

  async down(): Promise<void> {
    // Deleted keys and versions cannot be restored.
  }
}
