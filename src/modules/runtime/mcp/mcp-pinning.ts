import { firstUnstorable } from '../../../common/validation/safe-json.js';
import { mcpToolName } from '../../bundles/mcp-servers.js';
import { MCP_DESCRIPTION_MAX_CHARS, MCP_INPUT_SCHEMA_MAX_BYTES, MCP_INPUT_SCHEMA_MAX_DEPTH, type McpToolDefinition } from './mcp.types.js';

/** One allowed tool as stored in `mcp_tool_pins.tools` (snake_case: a stored document, like the bundle). */
export interface PinnedMcpTool {
  server: string;
  tool: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** A tool as the server listed it (the SDK's `Tool`, the fields pinning reads). */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** Serialized bytes of every pinned tool of one revision together. */
export const MCP_PINS_MAX_BYTES = 256 * 1024;

/**
 * The pin of one allowed tool, or why the server's definition cannot be pinned: the input schema must be a JSON object
 * schema (`type: "object"`) within MCP_INPUT_SCHEMA_MAX_BYTES and MCP_INPUT_SCHEMA_MAX_DEPTH, storable (no NUL, no lone
 * surrogate); the description is cut to MCP_DESCRIPTION_MAX_CHARS. A schema is data the model reads, never compiled here.
 */
export function pinTool(server: string, listed: ListedTool): { pin: PinnedMcpTool } | { problem: string } {
  const schema = listed.inputSchema;
  if (!isPlainObject(schema) || schema.type !== 'object') return { problem: 'has an input schema that is not a JSON object schema' };
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > MCP_INPUT_SCHEMA_MAX_BYTES) {
    return { problem: `has an input schema of ${bytes} bytes; the service pins at most ${MCP_INPUT_SCHEMA_MAX_BYTES}` };
  }
  if (depthOf(schema) > MCP_INPUT_SCHEMA_MAX_DEPTH) {
    return { problem: `has an input schema nested deeper than ${MCP_INPUT_SCHEMA_MAX_DEPTH} levels` };
  }
  const description = (listed.description ?? '').slice(0, MCP_DESCRIPTION_MAX_CHARS);
  const unstorable = firstUnstorable({ description, schema }, 'tool');
  if (unstorable) {
    const where = unstorable.field.replace(/^tool\.?/, '');
    return { problem: `has a definition that cannot be stored (${where} ${unstorable.reason})`.slice(0, 300) };
  }
  return { pin: { server, tool: listed.name, description, input_schema: schema } };
}

/** What the agent loop sees of a pin. */
export function toDefinition(pin: PinnedMcpTool): McpToolDefinition {
  return {
    name: mcpToolName(pin.server, pin.tool),
    server: pin.server,
    tool: pin.tool,
    description: pin.description,
    inputSchema: pin.input_schema,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nesting of objects and arrays (iterative: a schema bomb cannot overflow the stack). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    max = Math.max(max, depth);
    if (max > MCP_INPUT_SCHEMA_MAX_DEPTH) return max;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return max;
}
