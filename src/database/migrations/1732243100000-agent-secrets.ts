import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent secrets (docs/security.md, "Agent secrets"): write-only values an agent's MCP servers and HTTP tools put in
 * header values as `{{secret:NAME}}`. Each value is sealed with the envelope encryption of `EncryptionKeys` (a data
 * key per value, sealed by the configured key whose id is stored beside it), tied to its (agent, name), so a sealed
 * value cannot be moved to another agent or name. Never stored in clear.
 */
export class AgentSecrets1732243100000 implements MigrationInterface {
  name = 'AgentSecrets1732243100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_secrets (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        key_id varchar(32) NOT NULL,
        value_sealed bytea NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT uq_agent_secrets_agent_name UNIQUE (agent_id, name)
      )
    `);
    // Key rotation re-seals what the current key did not seal.
    await q.query(`CREATE INDEX ix_agent_secrets_key ON agent_secrets (key_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_secrets`);
  }
}
