import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MCP tools pinned at push (docs/mcp.md): for each revision whose bundle names MCP servers, the allowed tools'
 * names, descriptions and input schemas as the servers listed them when the revision was committed. Later changes on a
 * server change nothing until a push commits a new revision. Deleted with the revision.
 */
export class McpToolPins1732243110000 implements MigrationInterface {
  name = 'McpToolPins1732243110000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mcp_tool_pins (
        revision_id char(24) PRIMARY KEY REFERENCES agent_revisions (id) ON DELETE CASCADE,
        agent_id char(24) NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        tools jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mcp_tool_pins`);
  }
}
