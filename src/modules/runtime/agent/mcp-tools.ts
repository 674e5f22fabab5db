import type { Bundle } from '../../bundles/bundle.types.js';

/*
 * The seam between the agent loop and the MCP client (src/modules/runtime/mcp, DESIGN.md "Agent mode"). These types
 * mirror the MCP module's contract (runtime/mcp/mcp.types.ts: `McpToolbox`, `McpCallResult`) structurally, so the loop
 * builds and is tested without that module: `McpService` satisfies `McpToolboxes` as it is, and is bound to it in the
 * runtime module (`{ provide: McpToolboxes, useExisting: McpService }`).
 */

/** One allowed tool of one MCP server, as pinned when its revision was pushed. */
export interface McpToolSpec {
  /** `<server>__<tool>`: the function name the model sees. */
  name: string;
  /** The bundle's `mcp_servers[].name` (the trace's `parent_tool`). */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  description: string;
  /** The input JSON Schema the server listed at push (bounded in size and depth by the MCP module). */
  inputSchema: Record<string, unknown>;
}

/** A call's outcome; a call never throws. */
export interface McpToolResult {
  status: 'completed' | 'failed';
  /** What the model reads: the tool's text, or a readable error. */
  text: string;
  structuredContent?: Record<string, unknown>;
  /** Why it failed (`timeout`, `unreachable`, `tool_error`, …). */
  reason?: string;
  truncated: boolean;
  durationMs: number;
}

/** A revision's MCP tools: what the model may call, and the call (bounded by the server's `timeout_ms`). */
export interface McpTools {
  readonly tools: readonly McpToolSpec[];
  callTool(server: string, tool: string, args: unknown, options?: { signal?: AbortSignal; deadline?: number }): Promise<McpToolResult>;
}

/** The revision whose pins a toolbox holds: its agent (whose secrets fill the headers), its id and its bundle. */
export interface McpToolboxRevision {
  agentId: string;
  revisionId: string;
  bundle: Bundle;
}

/** Gives a revision's MCP toolbox (cached per revision by the MCP module). */
export abstract class McpToolboxes {
  abstract toolbox(revision: McpToolboxRevision): Promise<McpTools>;
}
