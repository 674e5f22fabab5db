import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { TurnPipeline } from '../messaging/turn-pipeline.js';
import { DEFAULT_MCP_USER, parseSendMessageArguments, SEND_MESSAGE_TOOL } from './send-message.tool.js';
import type { McpMessageDto } from './dto/mcp-message.dto.js';

/** What the controller answers: the status, the headers the protocol needs, and the body (none for 202). */
export interface McpHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const SERVER_INFO = { name: 'agent-service', version: '0.1.0' };

/** Response headers of the SDK transport the wire keeps (the rest — content-length, … — is Fastify's to set). */
const KEPT_HEADERS = ['content-type', 'mcp-session-id', 'allow'];

/**
 * Agents as MCP servers (docs/mcp.md): each `POST /mcp` is one stateless Streamable HTTP exchange handled by the
 * official SDK's server (a fresh server and transport per request, JSON responses), for the agent behind the messaging
 * token. Its one tool, `send_message`, runs a turn through the same pipeline as `POST /messaging/v1/messages`: usage,
 * traces, the thread and its items, metrics, webhooks.
 */
@Injectable()
export class McpServerService {
  private readonly logger = new Logger(McpServerService.name);

  constructor(private readonly turns: TurnPipeline) {}

  async handle(who: Principal, message: McpMessageDto, protocolVersion: string | undefined): Promise<McpHttpAnswer> {
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [SEND_MESSAGE_TOOL] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => this.callTool(who, request.params.name, request.params.arguments));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (error) => this.logger.debug({ err: error }, 'MCP request refused by the protocol layer');
    await server.connect(transport);
    try {
      // The body was parsed and checked at the edge; content negotiation is ours: the answer is always JSON.
      const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      if (protocolVersion) headers['mcp-protocol-version'] = protocolVersion;
      // The message as sent: the DTO's absent optional fields are not keys of it (the SDK's schemas are strict).
      const parsedBody = Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined));
      const response = await transport.handleRequest(new Request('http://mcp.invalid/mcp', { method: 'POST', headers }), { parsedBody });
      const text = await response.text();
      if (response.status >= 400) throw protocolError(response.status, text);
      const kept: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = response.headers.get(name);
        if (value) kept[name] = value;
      }
      return { status: response.status, headers: kept, body: text ? (JSON.parse(text) as unknown) : undefined };
    } finally {
      await server.close();
    }
  }

  /** `send_message`: a turn of the agent; every failure is a tool error the caller's model can read. */
  private async callTool(who: Principal, name: string, args: unknown): Promise<CallToolResult> {
    if (name !== SEND_MESSAGE_TOOL.name) return toolError(`${ErrorCode.NotFound}: this server has one tool, send_message`);
    const parsed = parseSendMessageArguments(args ?? {});
    if (!parsed.ok) return toolError(`${ErrorCode.ValidationError}: ${parsed.problems.join('; ')}`);
    const { text, threadId, userId } = parsed.value;
    try {
      const reply = await this.turns.run(
        { organizationId: who.organizationId, agentId: actingAgentId(who) },
        {
          origin: { kind: 'api', surface: 'mcp' },
          text,
          threadId,
          userId: userId ?? (threadId ? undefined : defaultUser(who)),
        },
      );
      return {
        content: [{ type: 'text', text: reply.message.text }],
        structuredContent: { thread_id: reply.thread_id, interaction_id: reply.interaction_id, message: reply.message },
      };
    } catch (error) {
      if (error instanceof AppError) return toolError(`${error.code}: ${error.message}`);
      this.logger.error({ err: error }, 'send_message failed');
      return toolError(`${ErrorCode.InternalError}: An unexpected error occurred`);
    }
  }
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A login session has a user; a client token (publishable key) does not. */
function defaultUser(who: Principal): string {
  return who.kind === 'session' ? who.userId : DEFAULT_MCP_USER;
}

/** The SDK's refusal (HTTP status + JSON-RPC error) as the service's error envelope. */
function protocolError(status: number, body: string): AppError {
  let message = 'The MCP request was refused';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message.slice(0, 300);
  } catch {
    // not JSON: keep the generic message
  }
  return new AppError(status, status === 405 ? ErrorCode.MethodNotAllowed : ErrorCode.BadRequest, message);
}
