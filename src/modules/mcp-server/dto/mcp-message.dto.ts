import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsObject, IsOptional, IsString, ValidateBy } from 'class-validator';
import { MaxChars } from '../../../common/validation/char-length.js';

/** A JSON-RPC id: a string (≤ 200 characters) or an integer; `null` only in responses. */
const IsJsonRpcId = () =>
  ValidateBy({
    name: 'isJsonRpcId',
    validator: {
      validate: (value: unknown) =>
        (typeof value === 'string' && value.length <= 200) || (typeof value === 'number' && Number.isSafeInteger(value)),
      defaultMessage: () => 'id must be a string (at most 200 characters) or an integer',
    },
  });

/**
 * One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification, or a response to a server
 * request), as MCP clients POST them. Batches are not taken (the 2025-06-18 protocol removed them).
 */
export class McpMessageDto {
  @ApiProperty({ enum: ['2.0'], description: 'JSON-RPC version' })
  @Equals('2.0', { message: 'jsonrpc must be "2.0"' })
  jsonrpc: '2.0';

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', maxLength: 200 }, { type: 'integer' }],
    description: 'Request id (absent on notifications)',
  })
  @IsOptional()
  @IsJsonRpcId()
  id?: string | number;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'tools/call',
    description: 'initialize, notifications/initialized, ping, tools/list, tools/call (absent on responses)',
  })
  @IsOptional()
  @IsString()
  @MaxChars(200)
  method?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "The method's parameters" })
  @IsOptional()
  @IsObject()
  params?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A response to a server request: its result' })
  @IsOptional()
  @IsObject()
  result?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A response to a server request: its error' })
  @IsOptional()
  @IsObject()
  error?: Record<string, unknown>;
}

/** The JSON-RPC response to a request (`result` or `error`). */
export class McpResponseDto {
  @ApiProperty({ enum: ['2.0'], description: 'JSON-RPC version' }) jsonrpc: '2.0';
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true, description: 'The request id' }) id:
    string | number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'The result: for tools/call of send_message, `content` (the reply text) and `structuredContent` {thread_id, interaction_id, message}',
  })
  result?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A JSON-RPC error {code, message}' })
  error?: Record<string, unknown>;
}
