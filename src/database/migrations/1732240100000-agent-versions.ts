import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Agent versions and their revisions (issue 3). The agents' live pointers already exist (foundation). */
export class AgentVersions1732240100000 implements MigrationInterface {
  name = 'AgentVersions1732240100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_versions (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        number integer NOT NULL CONSTRAINT ck_agent_versions_number CHECK (number >= 1),
        status varchar(16) NOT NULL DEFAULT 'draft' CONSTRAINT ck_agent_versions_status CHECK (status IN ('draft', 'published', 'archived')),
        label text,
        tags text[] NOT NULL DEFAULT '{}',
        notes text,
        current_revision_id char(24),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_agent_versions_agent_id_number UNIQUE (agent_id, number)
      );
      CREATE INDEX ix_agent_versions_agent_created ON agent_versions (agent_id, created_at, id);

      CREATE TABLE agent_revisions (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version_id char(24) NOT NULL REFERENCES agent_versions(id) ON DELETE CASCADE,
        revision_number integer NOT NULL CONSTRAINT ck_agent_revisions_revision_number CHECK (revision_number >= 0),
        version_tag varchar(32) NOT NULL,
        bundle jsonb NOT NULL,
        digest varchar(71) NOT NULL,
        message text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_agent_revisions_version_id_revision_number UNIQUE (version_id, revision_number),
        CONSTRAINT uq_agent_revisions_agent_id_version_tag UNIQUE (agent_id, version_tag)
      );
      CREATE INDEX ix_agent_revisions_agent_created ON agent_revisions (agent_id, created_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_revisions, agent_versions`);
  }
}
