import { Injectable } from '@nestjs/common';
import { SqlService } from '../../../database/sql.service.js';
import type { PinnedMcpTool } from './mcp-pinning.js';

/** The `mcp_tool_pins` table: one row per revision whose bundle names MCP servers. */
@Injectable()
export class McpPinsRepository {
  constructor(private readonly sql: SqlService) {}

  async insert(revisionId: string, agentId: string, tools: PinnedMcpTool[]): Promise<void> {
    await this.sql.rows(`INSERT INTO mcp_tool_pins (revision_id, agent_id, tools) VALUES ($1, $2, $3)`, [
      revisionId,
      agentId,
      JSON.stringify(tools),
    ]);
  }

  /** The new revision pins what `fromRevisionId` pinned (same servers, same agent); false when that one pinned nothing. */
  async copy(fromRevisionId: string, toRevisionId: string): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO mcp_tool_pins (revision_id, agent_id, tools)
       SELECT $2, agent_id, tools FROM mcp_tool_pins WHERE revision_id = $1 RETURNING revision_id`,
      [fromRevisionId, toRevisionId],
    );
    return rows.length > 0;
  }

  async find(revisionId: string): Promise<PinnedMcpTool[] | undefined> {
    const row = await this.sql.one<{ tools: PinnedMcpTool[] }>(
      `SELECT tools FROM mcp_tool_pins WHERE revision_id = $1`,
      [revisionId],
      'mcp_tool_pins_find',
    );
    return row?.tools;
  }
}
