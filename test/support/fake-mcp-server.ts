import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** One HTTP request the server received. */
export interface McpRequestSeen {
  method: string;
  authorization: string | undefined;
  /** The JSON-RPC method of a POST (`initialize`, `tools/list`, `tools/call`, …). */
  rpc: string | undefined;
  tool?: string;
}

type ToolHandler = (args: Record<string, unknown>, request: IncomingMessage) => Promise<CallToolResult> | CallToolResult;

/**
 * An operator's MCP server, built with the official SDK (a low-level `Server` over the Node Streamable HTTP transport,
 * stateless: a server and transport per request), on loopback. Requests without `Authorization: Bearer <token>` are
 * refused with 401 before the protocol. Tools, their descriptions and schemas can change while it runs (pinning).
 */
export class FakeMcpServer {
  readonly seen: McpRequestSeen[] = [];
  readonly tools = new Map<string, { definition: Tool; handler: ToolHandler }>();
  /** Requests still open (a tool that never answers); destroyed on stop. */
  private readonly open = new Set<ServerResponse>();
  private server!: HttpServer;
  port = 0;

  constructor(public token: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  tool(name: string, description: string, inputSchema: Tool['inputSchema'], handler: ToolHandler): this {
    this.tools.set(name, { definition: { name, description, inputSchema }, handler });
    return this;
  }

  calls(tool: string): McpRequestSeen[] {
    return this.seen.filter((s) => s.rpc === 'tools/call' && s.tool === tool);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
    let body: { method?: string; params?: { name?: string } } | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    this.seen.push({ method: req.method ?? '', authorization: req.headers.authorization, rpc: body?.method, tool: body?.params?.name });
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid token' }));
      return;
    }
    const server = new Server({ name: 'fake-operator', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.tools.values()].map((t) => t.definition) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.tools.get(request.params.name);
      if (!tool) return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
      return tool.handler(request.params.arguments ?? {}, req);
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    this.open.add(res);
    res.on('close', () => {
      this.open.delete(res);
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
