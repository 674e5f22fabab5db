import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import { traceSchema, type TraceDto } from '../../runtime/dto/trace.dto.js';
import { V1TraceDto } from '../../runtime/dto/v1-trace.dto.js';
import { V2TraceDto } from '../../runtime/dto/v2-trace.dto.js';

export class ParticipantDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['agent', 'user'] }) type: string;
}

export class SubEntityDto {
  @ApiProperty({ example: 'variants' }) name: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) items: Array<Record<string, unknown>>;
}

export class CardJsonDataDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: "Flat key/value object of the card's fields" })
  entity: Record<string, unknown>;
  @ApiProperty({ type: [SubEntityDto], description: 'Nested groups such as variants' })
  sub_entities: SubEntityDto[];
}

export class CardResponseDto {
  @ApiProperty({ description: 'Ready-to-render JSX string for React UIs' }) rendered_jsx: string;
  @ApiProperty() is_recommended: boolean;
  @ApiProperty({ type: 'integer' }) index: number;
  @ApiProperty({ type: CardJsonDataDto }) json_data: CardJsonDataDto;
  @ApiPropertyOptional({ description: 'The agent capability (tool code) that produced the card' }) capability?: string;
  @ApiPropertyOptional({ description: 'The record the card is about' }) instance?: string;
  @ApiPropertyOptional() title?: string;
}

@ApiExtraModels(V1TraceDto, V2TraceDto)
export class MessageDto {
  @ApiId() id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty() text: string;
  @ApiProperty({ type: ParticipantDto }) sender: ParticipantDto;
  @ApiProperty({ type: ParticipantDto }) receiver: ParticipantDto;
  @ApiProperty({ type: [CardResponseDto] }) cards: CardResponseDto[];
  @ApiProperty({ description: "The live version's greeting" }) welcome_message: string;
  @ApiProperty({ type: [String], description: 'Ready-made follow-up prompts' }) followup_suggestions: string[];
  @ApiProperty({ description: 'Link to the most relevant source of the reply (top card or first citation); empty when none' }) url: string;
  @ApiProperty({ type: 'integer', default: 0 }) input_tokens: number;
  @ApiProperty({ type: 'integer', default: 0 }) output_tokens: number;
  @ApiPropertyOptional({
    ...traceSchema(V1TraceDto, V2TraceDto),
    description: 'The reasoning trace (shape selected by `runtime`); present only when the request set include_trace to true',
  })
  trace_info?: TraceDto;
}

export class SendMessageResponseDto {
  @ApiId('The resolved thread id') thread_id: string;
  @ApiId('The interaction (turn) id') interaction_id: string;
  @ApiProperty({ type: MessageDto }) message: MessageDto;
}

export class WelcomeMessageResponseDto {
  @ApiProperty() welcome_message: string;
  @ApiProperty({ type: [String] }) followup_suggestions: string[];
}

export class FollowupSuggestionsResponseDto {
  @ApiProperty({ type: [String] }) followup_suggestions: string[];
}
