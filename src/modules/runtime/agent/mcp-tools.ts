import type { Bundle } from '../../bundles/bundle.types.js';

/*
 * The seam between the agent loop and the MCP client (src/modules/runtime/mcp, DESIGN.md "Agent mode"): the loop
 * offers a revision's pinned MCP tools to the model as `<server>__<tool>` and calls them through `McpToolCaller`.
 * The MCP module provides both: the pinned definitions travel with the revision (`Revision.mcpTools`, fetched and
 * pinned at push, allowed tools only), and the caller is bound as the `McpToolCaller` provider of the runtime module.
 */

/** One allowed tool of one `mcp_servers[]` entry, as pinned in the revision at push. */
export interface PinnedMcpTool {
  /** `mcp_servers[].name` (`^[a-z][a-z0-9_]{0,31}$`). */
  server: string;
  /** The tool's name on that server. */
  tool: string;
  description: string;
  /** The tool's input JSON Schema as the server published it at push (bounded by the MCP module). */
  inputSchema: Record<string, unknown>;
  /** The server's `timeout_ms` (default 10000): the call's deadline. */
  timeoutMs: number;
}

/** The revision a call belongs to: its `mcp_servers[]` (URL, headers, timeout) are the bundle's. */
export interface McpRevision {
  digest: string;
  bundle: Bundle;
}

/** One call of a pinned tool. */
export interface McpToolCall {
  /** The agent answering (its secrets fill `{{secret:NAME}}` header values). */
  agentId: string | undefined;
  /** The revision whose `mcp_servers[]` names the server. */
  revision: McpRevision;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Aborted when the call's or the turn's deadline passes. */
  signal: AbortSignal;
}

/** What the server answered: its text content joined, and its structured content when it sent one. */
export interface McpToolResult {
  isError: boolean;
  text: string;
  structuredContent?: Record<string, unknown>;
}

/**
 * Calls MCP tools for the agent loop. Rejects (or answers `isError`) on failure; a rejection becomes a failed step the
 * model reads, never a failed turn.
 */
export abstract class McpToolCaller {
  abstract callTool(call: McpToolCall): Promise<McpToolResult>;
}
