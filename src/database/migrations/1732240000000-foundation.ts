import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1732240000000 implements MigrationInterface {
  name = 'Foundation1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id char(24) PRIMARY KEY,
        name varchar(200) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE TABLE organization_api_keys (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL,
        key_prefix varchar(16) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      );
      CREATE UNIQUE INDEX uq_organization_api_keys_key_hash ON organization_api_keys (key_hash);
      CREATE INDEX ix_organization_api_keys_organization_id ON organization_api_keys (organization_id);

      CREATE TABLE users (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email varchar(320) NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX uq_users_email ON users (lower(email));

      CREATE TABLE projects (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        deleted_at timestamptz(3)
      );
      CREATE INDEX ix_projects_organization_created ON projects (organization_id, created_at, id) WHERE deleted_at IS NULL;

      CREATE TABLE agents (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id char(24) NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        description text,
        runtime varchar(2) NOT NULL DEFAULT 'v1' CONSTRAINT ck_agents_runtime CHECK (runtime IN ('v1', 'v2')),
        live_version_id char(24),
        live_revision_id char(24),
        live_version_tag varchar(32),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        deleted_at timestamptz(3)
      );
      CREATE INDEX ix_agents_project_created ON agents (project_id, created_at, id) WHERE deleted_at IS NULL;

      CREATE TABLE publishable_keys (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL,
        key_prefix varchar(16) NOT NULL,
        allowed_origins text[] NOT NULL DEFAULT '{}',
        allowed_ip_ranges text[] NOT NULL DEFAULT '{}',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      );
      CREATE UNIQUE INDEX uq_publishable_keys_key_hash ON publishable_keys (key_hash);
      CREATE INDEX ix_publishable_keys_agent_id ON publishable_keys (agent_id);

      CREATE TABLE agent_api_keys (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL,
        key_prefix varchar(16) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      );
      CREATE UNIQUE INDEX uq_agent_api_keys_key_hash ON agent_api_keys (key_hash);
      CREATE INDEX ix_agent_api_keys_agent_id ON agent_api_keys (agent_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_api_keys, publishable_keys, agents, projects, users, organization_api_keys, organizations`);
  }
}
