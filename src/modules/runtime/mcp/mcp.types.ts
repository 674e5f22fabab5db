import type { Bundle } from '../../bundles/bundle.types.js';

/**
 * What the agent loop gets from the MCP client (docs/mcp.md): a revision's pinned tool definitions and a way to call
 * them. Built by `McpService.toolbox(...)` once per revision (cached); a call never throws, its failure is a result the
 * model can read.
 */

/** One allowed tool of one MCP server, as pinned when its revision was pushed. */
export interface McpToolDefinition {
  /** `<server>__<tool>`: the function name the model sees (≤ 64 characters, unique in the revision). */
  name: string;
  /** The bundle's `mcp_servers[].name` (the trace's `parent_tool`). */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The server's description of the tool (at most MCP_DESCRIPTION_MAX_CHARS). */
  description: string;
  /** The tool's input JSON Schema as the server listed it (an object schema; bounded in size and depth at push). */
  inputSchema: Record<string, unknown>;
}

/** Why a call produced no tool output: the model reads `text`, the trace records the reason. */
export type McpFailureReason =
  /** Not a pinned allowed tool of a server of this revision: nothing was sent. */
  | 'not_allowed'
  /** Arguments that are not a JSON object, or over MCP_ARGUMENTS_MAX_BYTES: nothing was sent. */
  | 'invalid_arguments'
  /** A header names an agent secret that is not set (or no configured key opens): nothing was sent. */
  | 'secret_unavailable'
  /** The server's or the caller's deadline passed. */
  | 'timeout'
  /** The caller's signal aborted the call. */
  | 'aborted'
  /** The URL resolves to a refused network (SSRF policy). */
  | 'blocked_address'
  /** DNS, connection, HTTP status or an unreadable answer. */
  | 'unreachable'
  /** The server answered with a JSON-RPC error or a result marked `isError`. */
  | 'tool_error';

export interface McpCallResult {
  status: 'completed' | 'failed';
  /** What the model reads: the tool's text content (bounded, secrets redacted), or a readable error. */
  text: string;
  /** The tool's `structuredContent`, when it sent one of at most MCP_RESULT_MAX_CHARS serialized. */
  structuredContent?: Record<string, unknown>;
  /** Set when `status` is `failed`. */
  reason?: McpFailureReason;
  /** The text was cut at MCP_RESULT_MAX_CHARS. */
  truncated: boolean;
  durationMs: number;
}

export interface McpCallOptions {
  /** Aborts the call (the turn ended); the result is then `failed` / `aborted`. */
  signal?: AbortSignal;
  /** Epoch milliseconds the call must end by (the turn's deadline); the server's `timeout_ms` bounds it too. */
  deadline?: number;
}

/** A revision's MCP tools: what the model may call, and the call. */
export interface McpToolbox {
  readonly tools: readonly McpToolDefinition[];
  /** The pinned tool the model named (`<server>__<tool>`), if any. */
  find(name: string): McpToolDefinition | undefined;
  callTool(server: string, tool: string, args: unknown, options?: McpCallOptions): Promise<McpCallResult>;
}

/** The revision a toolbox is for: its agent (whose secrets fill the headers), its id (whose pins it reads) and bundle. */
export interface McpRevision {
  agentId: string;
  revisionId: string;
  bundle: Pick<Bundle, 'mcp_servers'>;
}

/** Characters of a tool's description kept at push (the rest is cut). */
export const MCP_DESCRIPTION_MAX_CHARS = 2000;
/** Serialized bytes of one tool's input schema pinned at push; a larger one is refused (422). */
export const MCP_INPUT_SCHEMA_MAX_BYTES = 16 * 1024;
/** Nesting of objects and arrays in one input schema; a deeper one is refused (422). */
export const MCP_INPUT_SCHEMA_MAX_DEPTH = 16;
/** Serialized bytes of one call's arguments. */
export const MCP_ARGUMENTS_MAX_BYTES = 64 * 1024;
/** Characters of a tool result's text (and serialized structured content) handed to the model. */
export const MCP_RESULT_MAX_CHARS = 16_000;
/** Bytes of any one HTTP answer of an MCP server read (listing or call); more is an error. */
export const MCP_RESPONSE_MAX_BYTES = 1024 * 1024;
