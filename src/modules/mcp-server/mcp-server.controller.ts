import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal, MessagingAuth } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { McpMessageDto, McpResponseDto } from './dto/mcp-message.dto.js';
import { McpServerService } from './mcp-server.service.js';

/** Agents as MCP servers: the Streamable HTTP endpoint (stateless) of the agent behind the messaging token. */
@Controller()
@ApiTags('MCP')
@MessagingAuth()
@ApiErrors(500)
export class McpServerController {
  constructor(private readonly mcp: McpServerService) {}

  @Post('mcp')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Talk to the agent over the Model Context Protocol',
    description:
      'A stateless MCP endpoint (Streamable HTTP, JSON responses) for the agent behind the messaging token: point an MCP client (an IDE, another agent, a workflow) at it with `Authorization: Bearer <token>`. ' +
      'One tool, `send_message` `{text, thread_id?, user_id?}`: the reply text, with `structuredContent` `{thread_id, interaction_id, message}` as `POST /messaging/v1/messages` answers. ' +
      'Turns count as sends: usage, traces, rate limits. GET (a server event stream) is not offered: 405.',
  })
  @ApiHeader({ name: 'MCP-Protocol-Version', required: false, description: 'The protocol version the client negotiated at initialize' })
  @ApiExampleBody(McpMessageDto, {
    initialize: {
      summary: 'Initialize',
      value: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'my-ide', version: '1.0.0' } },
      },
    },
    list: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
    send: {
      summary: 'Send a message',
      value: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_message', arguments: { text: 'Where is my order?' } } },
    },
  })
  @ApiOkResponse({ type: McpResponseDto, description: 'The JSON-RPC response' })
  @ApiAcceptedResponse({ description: 'A notification or a response: accepted, no body' })
  @ApiErrors(400, 403, 413, 415, 422)
  async post(
    @CurrentPrincipal() who: Principal,
    @Body() body: McpMessageDto,
    @Headers('mcp-protocol-version') protocolVersion: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const answer = await this.mcp.handle(who, body, protocolVersion);
    reply.status(answer.status).headers(answer.headers);
    return answer.body;
  }
}
