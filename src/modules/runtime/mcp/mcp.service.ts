import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { LRUCache } from 'lru-cache';
import { ValidationError, type ErrorDetail } from '../../../common/errors/app-error.js';
import { OutboundHttpClient, OutboundRequestError } from '../../../common/outbound/outbound-http.client.js';
import { AgentSecretsStore } from '../../agent-secrets/agent-secrets.store.js';
import type { Bundle, McpServer } from '../../bundles/bundle.types.js';
import { MCP_DEFAULT_TIMEOUT_MS, mcpToolName } from '../../bundles/mcp-servers.js';
import { McpPinsRepository } from './mcp-pins.repository.js';
import { MCP_PINS_MAX_BYTES, pinTool, toDefinition, type ListedTool, type PinnedMcpTool } from './mcp-pinning.js';
import {
  MCP_ARGUMENTS_MAX_BYTES,
  MCP_RESPONSE_MAX_BYTES,
  MCP_RESULT_MAX_CHARS,
  type McpCallOptions,
  type McpCallResult,
  type McpFailureReason,
  type McpRevision,
  type McpToolbox,
  type McpToolDefinition,
} from './mcp.types.js';
import { McpResponseTooLargeError, outboundFetch } from './outbound-fetch.js';

/** Pages of `tools/list` read at push: a server listing more tools than this many pages hold is read that far. */
const MAX_LIST_PAGES = 20;
/** Characters of an error the model, the trace or a 422 shows (a server's error page is not worth more). */
const ERROR_MAX_CHARS = 300;

/** What this service tells servers it is. */
const CLIENT_INFO = { name: 'agent-service', version: '0.1.0' };

/**
 * Structured output is not validated here: the model reads the content, and a server's output schema is not compiled
 * (an untrusted schema is data, never code the service runs).
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/** A revision's pins, resolved once. */
interface PinnedRevision {
  tools: McpToolDefinition[];
  byName: Map<string, McpToolDefinition>;
}

/**
 * The MCP client (docs/mcp.md): lists and pins the allowed tools of a bundle's `mcp_servers` at push, and calls them for
 * the agent loop. Every exchange goes through the official SDK's Streamable HTTP client transport over the outbound
 * client (SSRF policy, pinned DNS, no redirects, bounded answers), one short connection per listing or call, bounded by
 * the server's `timeout_ms` and the caller's deadline. Header values are filled with agent secrets at call time, and
 * those values are redacted from whatever a server answers before anyone reads it.
 */
@Injectable()
export class McpService {
  private readonly revisions = new LRUCache<string, Promise<McpToolbox>>({ max: 1000 });

  constructor(
    private readonly http: OutboundHttpClient,
    private readonly secrets: AgentSecretsStore,
    private readonly pins: McpPinsRepository,
  ) {}

  /**
   * At push: each server's allowed tools as the server lists them now, or 422 naming the field — an unreachable
   * server (`…mcp_servers[i].url`), an allowed tool it does not list or cannot be pinned (`…allowed_tools[j]`), pins
   * over MCP_PINS_MAX_BYTES (`…mcp_servers`). Null when the bundle names no server. Secrets must exist (checked before).
   */
  async discover(agentId: string, bundle: Bundle, root = 'bundle'): Promise<PinnedMcpTool[] | null> {
    const servers = bundle.mcp_servers ?? [];
    if (servers.length === 0) return null;
    const details: ErrorDetail[] = [];
    const listed = await Promise.all(servers.map((server, i) => this.listAllowed(agentId, server, `${root}.mcp_servers[${i}]`, details)));
    if (details.length === 0) {
      const bytes = Buffer.byteLength(JSON.stringify(listed.flat()));
      if (bytes > MCP_PINS_MAX_BYTES) {
        details.push({
          field: `${root}.mcp_servers`,
          message: `pin ${bytes} bytes of tool definitions; a revision holds at most ${MCP_PINS_MAX_BYTES}`,
        });
      }
    }
    if (details.length > 0) throw new ValidationError(details, "The bundle's MCP servers cannot be pinned");
    return listed.flat();
  }

  /** Stores the pins of a new revision (in the caller's transaction). */
  async savePins(revisionId: string, agentId: string, tools: PinnedMcpTool[]): Promise<void> {
    await this.pins.insert(revisionId, agentId, tools);
  }

  /** A new revision with the same servers pins what its source pinned (rename, knowledge upload, clone). */
  async copyPins(fromRevisionId: string, toRevisionId: string): Promise<void> {
    if (!(await this.pins.copy(fromRevisionId, toRevisionId))) {
      throw new Error(`Revision ${fromRevisionId} names MCP servers but pinned no tools`);
    }
  }

  /**
   * The revision's pinned tools and their calls: one object per revision (the same one on every turn, so callers may
   * cache what they build from it); a bundle without MCP servers has none and costs no read.
   */
  toolbox(revision: McpRevision): Promise<McpToolbox> {
    const servers = revision.bundle.mcp_servers ?? [];
    if (servers.length === 0) return Promise.resolve(this.bind(revision.agentId, servers, { tools: [], byName: new Map() }));
    let found = this.revisions.get(revision.revisionId);
    if (!found) {
      found = this.pins.find(revision.revisionId).then((pins) => {
        const tools = (pins ?? []).map(toDefinition);
        return this.bind(revision.agentId, servers, { tools, byName: new Map(tools.map((t) => [t.name, t])) });
      });
      found.catch(() => this.revisions.delete(revision.revisionId));
      this.revisions.set(revision.revisionId, found);
    }
    return found;
  }

  private bind(agentId: string, servers: McpServer[], pinned: PinnedRevision): McpToolbox {
    return {
      tools: pinned.tools,
      find: (name) => pinned.byName.get(name),
      callTool: (server, tool, args, options) => this.call(agentId, servers, pinned, server, tool, args, options ?? {}),
    };
  }

  /** One server's allowed tools, pinned; problems go to `details` (named by field), the result is then partial. */
  private async listAllowed(agentId: string, server: McpServer, at: string, details: ErrorDetail[]): Promise<PinnedMcpTool[]> {
    const filled = await this.secrets.fillHeaders(agentId, server.headers ?? {});
    if (!filled.ok) {
      details.push({ field: `${at}.headers`, message: filled.message });
      return [];
    }
    const listed = new Map<string, ListedTool>();
    try {
      await this.session(server, filled.headers, {}, async (client, options) => {
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
          const result = await client.listTools(cursor ? { cursor } : undefined, options);
          for (const tool of result.tools) if (!listed.has(tool.name)) listed.set(tool.name, tool);
          cursor = result.nextCursor;
          if (!cursor) break;
        }
      });
    } catch (error) {
      details.push({ field: `${at}.url`, message: `could not list the server's tools: ${describe(error, filled.secrets)}` });
      return [];
    }
    const pins: PinnedMcpTool[] = [];
    server.allowed_tools.forEach((name, j) => {
      const tool = listed.get(name);
      const field = `${at}.allowed_tools[${j}]`;
      if (!tool) {
        const known = [...listed.keys()].slice(0, 20).join(', ');
        details.push({
          field,
          message: `names no tool of the server (it lists ${known ? known : 'none'}${listed.size > 20 ? ', …' : ''})`,
        });
        return;
      }
      const pinned = pinTool(server.name, tool);
      if ('problem' in pinned) details.push({ field, message: pinned.problem });
      else pins.push(pinned.pin);
    });
    return pins;
  }

  private async call(
    agentId: string,
    servers: McpServer[],
    pinned: PinnedRevision,
    serverName: string,
    toolName: string,
    args: unknown,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    const started = performance.now();
    const failed = (reason: McpFailureReason, text: string): McpCallResult => ({
      status: 'failed',
      reason,
      text,
      truncated: false,
      durationMs: Math.round(performance.now() - started),
    });
    const server = servers.find((s) => s.name === serverName);
    const name = mcpToolName(serverName, toolName);
    if (!server || !server.allowed_tools.includes(toolName) || !pinned.byName.has(name)) {
      return failed('not_allowed', `${name} is not an allowed tool of this agent's MCP servers`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return failed('invalid_arguments', 'the arguments must be a JSON object');
    }
    const bytes = Buffer.byteLength(JSON.stringify(args));
    if (bytes > MCP_ARGUMENTS_MAX_BYTES) {
      return failed('invalid_arguments', `the arguments are ${bytes} bytes; at most ${MCP_ARGUMENTS_MAX_BYTES} are sent`);
    }
    const filled = await this.secrets.fillHeaders(agentId, server.headers ?? {});
    if (!filled.ok) return failed('secret_unavailable', filled.message);
    try {
      const result = await this.session(
        server,
        filled.headers,
        options,
        async (client, requestOptions) =>
          (await client.callTool(
            { name: toolName, arguments: args as Record<string, unknown> },
            undefined,
            requestOptions,
          )) as CallToolResult,
      );
      const { text, truncated } = contentText(result.content, filled.secrets);
      const structured = structuredOf(result.structuredContent, filled.secrets);
      return {
        status: result.isError ? 'failed' : 'completed',
        ...(result.isError ? { reason: 'tool_error' as const } : {}),
        text,
        ...(structured ? { structuredContent: structured } : {}),
        truncated,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      if (options.signal?.aborted) return failed('aborted', 'the call was cancelled');
      return failed(reasonOf(error), describe(error, filled.secrets));
    }
  }

  /**
   * Connects (initialize), runs `work`, closes — all within the server's `timeout_ms` and the caller's deadline and
   * signal, whichever ends first; the SDK's own request timeouts are given the same bound.
   */
  private async session<T>(
    server: McpServer,
    headers: Record<string, string>,
    options: McpCallOptions,
    work: (client: Client, requestOptions: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    const deadline = Math.min(Date.now() + (server.timeout_ms ?? MCP_DEFAULT_TIMEOUT_MS), options.deadline ?? Infinity);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineError()), Math.max(0, deadline - Date.now()));
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: outboundFetch(this.http, { deadline, maxResponseBytes: MCP_RESPONSE_MAX_BYTES, signal: controller.signal }),
      requestInit: { headers },
      // The answer of a stateless exchange is complete when it ends: never resume or reconnect.
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 0, maxReconnectionDelay: 0, reconnectionDelayGrowFactor: 1 },
    });
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: NO_OUTPUT_VALIDATION });
    try {
      // The deadline timer above is the bound; the SDK's own request timeout only backs it up.
      const requestOptions = () => ({ signal: controller.signal, timeout: Math.max(1, deadline - Date.now()) + 1000 });
      await client.connect(transport, requestOptions());
      return await work(client, requestOptions());
    } catch (error) {
      throw controller.signal.reason instanceof DeadlineError ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      await client.close().catch(() => undefined);
    }
  }
}

/** The server's `timeout_ms` or the caller's deadline passed. */
class DeadlineError extends Error {
  constructor() {
    super('no answer within the deadline');
  }
}

function reasonOf(error: unknown): McpFailureReason {
  if (error instanceof DeadlineError) return 'timeout';
  if (error instanceof OutboundRequestError) {
    if (error.reason === 'timeout') return 'timeout';
    if (error.reason === 'blocked_address' || error.reason === 'invalid_url') return 'blocked_address';
    return 'unreachable';
  }
  if (error instanceof McpResponseTooLargeError) return 'unreachable';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === ErrorCode.RequestTimeout) return 'timeout';
  // A JSON-RPC error the server answered (McpError: unknown tool, invalid params, its own failure).
  if (typeof code === 'number' && code < 0) return 'tool_error';
  return 'unreachable';
}

/** A readable, bounded account of a failure with the agent's secret values taken out. */
function describe(error: unknown, secrets: string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  // The transport's HTTP failures carry the status as their code (the SDK's message may not name it).
  const message = typeof code === 'number' && code >= 100 && code < 600 ? `HTTP ${code}: ${text}` : text;
  return redact(message, secrets).replace(/\s+/g, ' ').trim().slice(0, ERROR_MAX_CHARS) || 'the call failed';
}

/** Secret values a server echoes back never reach the model, the trace or a log (short values would mangle text). */
function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[secret]');
  return out;
}

/** The model's view of a tool result's content: text parts (and embedded text resources), others named, bounded. */
function contentText(content: unknown, secrets: string[]): { text: string; truncated: boolean } {
  const parts: string[] = [];
  for (const item of Array.isArray(content) ? (content as Array<Record<string, unknown>>) : []) {
    if (item.type === 'text' && typeof item.text === 'string') parts.push(item.text);
    else if (item.type === 'resource' && typeof (item.resource as { text?: unknown } | undefined)?.text === 'string') {
      parts.push((item.resource as { text: string }).text);
    } else if (item.type === 'resource_link' && typeof item.uri === 'string') parts.push(`[resource ${item.uri}]`);
    else parts.push(`[${typeof item.type === 'string' ? item.type : 'unknown'} content not shown]`);
  }
  const text = redact(parts.join('\n'), secrets);
  return text.length > MCP_RESULT_MAX_CHARS ? { text: text.slice(0, MCP_RESULT_MAX_CHARS), truncated: true } : { text, truncated: false };
}

/** Structured content within MCP_RESULT_MAX_CHARS serialized (secrets redacted), else none. */
function structuredOf(value: unknown, secrets: string[]): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const text = JSON.stringify(value);
  if (text.length > MCP_RESULT_MAX_CHARS) return undefined;
  const redacted = redact(text, secrets);
  if (redacted === text) return value as Record<string, unknown>;
  try {
    return JSON.parse(redacted) as Record<string, unknown>;
  } catch {
    return undefined; // a secret that spanned the document's structure: nothing of it is shown
  }
}
