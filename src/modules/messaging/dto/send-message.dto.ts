import { ApiHideProperty, ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, Max, Min, IsOptional, IsString, IsUrl, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { CharLength, IsMessageText, MaxChars } from '../../../common/validation/char-length.js';
import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';
import { MustBeAbsent } from '../../../common/validation/must-be-absent.js';
import type { TurnRequest } from '../turn.types.js';

export const AGENT_ID_REJECTED = 'agent_id is not accepted: the access token carries the agent';

/** Per-message values for the agent's configured context variables. */
export class AgentVariablesDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Values fixed for the conversation (e.g. store, locale)',
  })
  @IsOptional()
  @IsObject()
  static?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Values of this message (e.g. cart, page)' })
  @IsOptional()
  @IsObject()
  dynamic?: Record<string, unknown>;
}

/** Fields every turn request shares (send, stream, WebSocket `message` frames). */
export class SendMessageDto {
  @ApiPropertyOptional({
    maxLength: INPUT_LIMITS.messageMaxChars,
    description: 'The end-user message; required unless image_url is given',
    example: 'Do you have running shoes under $100?',
  })
  @ValidateIf((o: SendMessageDto) => o.image_url === undefined || o.text !== undefined)
  @IsMessageText()
  text?: string;

  @ApiProperty({ minLength: 1, maxLength: 255, description: 'Your id of the end user', example: 'user-42' })
  @IsString()
  @CharLength(1, 255)
  user_id: string;

  @ApiPropertyOptional({ pattern: '^[0-9a-fA-F]{24}$', description: 'Append to this thread; omit to start a new one' })
  @IsOptional()
  @IsId()
  thread_id?: string;

  @ApiPropertyOptional({ description: 'Signed image URL for vision input', example: 'https://cdn.example.com/u/42/photo.jpg?sig=abc' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxChars(4096)
  image_url?: string;

  @ApiPropertyOptional({ type: AgentVariablesDto, description: "Values for the agent's context variables" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentVariablesDto)
  agent_variables?: AgentVariablesDto;

  @ApiPropertyOptional({
    pattern: '^\\d{1,9}(\\.\\d{1,9}){0,2}$',
    description: 'Build pin for agents on the v2 engine (e.g. 2.1); ignored for v1 agents',
    example: '2.1',
  })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,9}(\.\d{1,9}){0,2}$/, { message: 'runtime_version must be a dotted version such as 2 or 2.1.0' })
  runtime_version?: string;

  @ApiPropertyOptional({ default: false, description: 'Include the reasoning trace as message.trace_info' })
  @IsOptional()
  @IsBoolean()
  include_trace?: boolean;

  /** Rejected with 422 whatever its value, null and "" included: the agent comes from the access token (spec "Versioning" 4). */
  @ApiHideProperty()
  @MustBeAbsent(AGENT_ID_REJECTED)
  agent_id?: never;
}

/** A rerun takes the send body's `include_trace`, and refuses `agent_id` as it does. */
export class RerunDto extends PickType(SendMessageDto, ['include_trace', 'agent_id'] as const) {}

export class ThreadIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: "A thread of the token's agent (`thread_id` of an earlier reply)" })
  @IsId()
  threadId: string;
}

export class FollowupSuggestionsRequestDto {
  @ApiPropertyOptional({ pattern: '^[0-9a-fA-F]{24}$', description: 'Suggest from this thread’s conversation' })
  @IsOptional()
  @IsId()
  thread_id?: string;

  @ApiPropertyOptional({
    maxLength: INPUT_LIMITS.messageMaxChars,
    description: 'Suggest from this text (e.g. what the user is looking at)',
  })
  @IsOptional()
  @IsMessageText()
  text?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 10, default: 3, description: 'How many suggestions at most' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  limit?: number;
}

/** The messaging turn request of a send or stream body, or of a WebSocket `message` frame (validated `SendMessageDto`). */
export function toTurnRequest(body: SendMessageDto, surface: 'json' | 'sse' | 'ws'): TurnRequest {
  return {
    origin: { kind: 'api', surface },
    text: body.text,
    userId: body.user_id,
    threadId: body.thread_id,
    imageUrl: body.image_url,
    agentVariables: body.agent_variables as Record<string, unknown> | undefined,
    runtimeVersion: body.runtime_version,
    includeTrace: body.include_trace,
  };
}
