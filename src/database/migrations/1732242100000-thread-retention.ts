import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Thread retention and erasure (issue 20, docs/governance.md).
 *
 * - `projects.thread_retention_days` (1..3650, NULL = keep forever).
 * - `ix_threads_project_last_activity`: the retention job picks a project's threads whose last activity
 *   (last turn, else creation) is older than the cutoff, in batches, straight from this index.
 * - `ix_events_thread`: deleting a thread deletes the events rows that ran on it (events.thread_id had no index).
 * - Usage is history: deleting conversation content never changes billed usage. The DELETE trigger on interactions
 *   (which subtracted from `usage_daily`) is dropped, so whole days keep their roll-up; `usage_erased` keeps the
 *   sums of deleted interactions at their own millisecond (no thread, user or content), so the partial first and
 *   last days of a usage range, which are read from interactions, still count them exactly. `usage_daily_apply()`
 *   itself is left alone (its DELETE branch is simply never fired now).
 */
export class ThreadRetention1732242100000 implements MigrationInterface {
  name = 'ThreadRetention1732242100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects ADD COLUMN thread_retention_days integer
        CONSTRAINT ck_projects_thread_retention_days CHECK (thread_retention_days BETWEEN 1 AND 3650);
      CREATE INDEX ix_projects_retention ON projects (id) WHERE thread_retention_days IS NOT NULL;

      CREATE INDEX ix_threads_project_last_activity ON threads (project_id, (COALESCE(last_interaction_at, created_at)));
      CREATE INDEX ix_events_thread ON events (thread_id) WHERE thread_id IS NOT NULL;

      DROP TRIGGER tr_interactions_usage_delete ON interactions;

      CREATE TABLE usage_erased (
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        version_tag varchar(32) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        interaction_count bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cache_read_tokens bigint NOT NULL,
        reasoning_tokens bigint NOT NULL
      );
      CREATE INDEX ix_usage_erased_agent_created ON usage_erased (agent_id, created_at);
      CREATE INDEX ix_usage_erased_project_created ON usage_erased (project_id, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE usage_erased;
      CREATE TRIGGER tr_interactions_usage_delete AFTER DELETE ON interactions
        REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_daily_apply();
      DROP INDEX ix_events_thread;
      DROP INDEX ix_threads_project_last_activity;
      DROP INDEX ix_projects_retention;
      ALTER TABLE projects DROP COLUMN thread_retention_days;
    `);
  }
}
