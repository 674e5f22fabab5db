/** What the model sees an MCP tool as: `<server>__<tool>` (docs/mcp.md). */
export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool}`;
}

/** Function names the model providers take: OpenAI and Anthropic both stop at 64 characters. */
export const MCP_TOOL_NAME_MAX = 64;

/** Default of `mcp_servers[].timeout_ms`: each call, connection included. */
export const MCP_DEFAULT_TIMEOUT_MS = 10_000;

/** Headers the MCP transport sets itself (protocol, session, content negotiation) or HTTP owns; a bundle may not set them. */
export const RESERVED_MCP_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);
