import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import { traceSchema, type TraceDto } from '../../runtime/dto/trace.dto.js';
import { V1TraceDto } from '../../runtime/dto/v1-trace.dto.js';
import { V2TraceDto } from '../../runtime/dto/v2-trace.dto.js';

export class ParticipantDto {
  @ApiProperty({ description: 'The agent id, or your end-user id', example: 'user-42' }) id: string;
  @ApiProperty({ enum: ['agent', 'user'], description: 'Who this participant is' }) type: string;
}

export class SubEntityDto {
  @ApiProperty({ example: 'variants', description: 'Group name' }) name: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Flat key/value objects' })
  items: Array<Record<string, unknown>>;
}

export class CardJsonDataDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: "Flat key/value object of the card's fields" })
  entity: Record<string, unknown>;
  @ApiProperty({ type: [SubEntityDto], description: 'Nested groups such as variants' })
  sub_entities: SubEntityDto[];
}

export class CardResponseDto {
  @ApiProperty({ description: 'Ready-to-render JSX string for React UIs' }) rendered_jsx: string;
  @ApiProperty({ description: 'The agent recommends this card: highlight it' }) is_recommended: boolean;
  @ApiProperty({ type: 'integer', description: 'Position of the card in the reply, from 0' }) index: number;
  @ApiProperty({ type: CardJsonDataDto, description: 'The card as data: render it yourself (treat values as untrusted text)' })
  json_data: CardJsonDataDto;
  @ApiPropertyOptional({ description: 'The agent capability (tool code) that produced the card' }) capability?: string;
  @ApiPropertyOptional({ description: 'The record the card is about' }) instance?: string;
  @ApiPropertyOptional({ description: 'Card title' }) title?: string;
}

/** What a reader of the reply needs to show a source: the trace's citation without the engine's internals. */
export class CitationDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The `[n]` marker in the reply text' }) marker: number;
  @ApiProperty({ description: 'Cited document id' }) document_id: string;
  @ApiProperty({ description: 'Cited document title' }) title: string;
  @ApiProperty({ description: "The document's URL; empty when it has none" }) url: string;
  @ApiProperty({ description: 'The cited passage' }) text: string;
}

@ApiExtraModels(V1TraceDto, V2TraceDto)
export class MessageDto {
  @ApiId('Message id') id: string;
  @ApiProperty({ format: 'date-time', description: 'When the reply was written' }) created_at: string;
  @ApiProperty({ description: 'The reply text (Markdown; may hold citation markers like [1])' }) text: string;
  @ApiProperty({ type: ParticipantDto, description: 'The agent' }) sender: ParticipantDto;
  @ApiProperty({ type: ParticipantDto, description: 'The end user' }) receiver: ParticipantDto;
  @ApiProperty({ type: [CardResponseDto], description: 'Cards of the reply (products, records)' }) cards: CardResponseDto[];
  @ApiProperty({ description: "The live version's greeting" }) welcome_message: string;
  @ApiProperty({ type: [String], description: 'Ready-made follow-up prompts' }) followup_suggestions: string[];
  @ApiProperty({ description: 'Link to the most relevant source of the reply (top card or first citation); empty when none' }) url: string;
  @ApiProperty({
    type: [CitationDto],
    description: 'The sources the `[n]` markers of the text cite (v2 agents; empty otherwise), without asking for the trace',
  })
  citations: CitationDto[];
  @ApiProperty({ type: 'integer', default: 0, description: 'Input tokens of the turn' }) input_tokens: number;
  @ApiProperty({ type: 'integer', default: 0, description: 'Output tokens of the turn' }) output_tokens: number;
  @ApiPropertyOptional({
    ...traceSchema(V1TraceDto, V2TraceDto),
    description: 'The reasoning trace (shape selected by `runtime`); present only when the request set include_trace to true',
  })
  trace_info?: TraceDto;
}

export class SendMessageResponseDto {
  @ApiId('The resolved thread id') thread_id: string;
  @ApiId('The interaction (turn) id') interaction_id: string;
  @ApiProperty({ type: MessageDto, description: 'The agent reply' }) message: MessageDto;
  @ApiPropertyOptional({
    enum: ['pending'],
    description:
      'Present when this turn handed the thread to an operator (a handoff rule, a decline, the agent): the next messages wait for a human',
  })
  control?: 'pending';
}

/** The answer to a send while an operator is awaited or holds the thread: the message is recorded, no engine ran (202). */
export class HeldMessageResponseDto {
  @ApiId('The thread') thread_id: string;
  @ApiId("The id of the recorded end-user message's exchange (no engine ran, no tokens were counted)") interaction_id: string;
  @ApiProperty({ enum: ['pending', 'human'], description: 'Who holds the thread: `pending` (waiting for an operator) or `human`' })
  control: 'pending' | 'human';
}

/** What a send answers: the agent's reply (200), or the held message (202) while the thread is not under agent control. */
export type TurnOutcome = SendMessageResponseDto | HeldMessageResponseDto;

export const isHeld = (outcome: TurnOutcome): outcome is HeldMessageResponseDto => !('message' in outcome);

export class WelcomeMessageResponseDto {
  @ApiProperty({ description: "The live version's greeting", example: 'Hi! What are you shopping for today?' }) welcome_message: string;
  @ApiProperty({ type: [String], description: 'Prompts to offer before the first message' }) followup_suggestions: string[];
}

export class FollowupSuggestionsResponseDto {
  @ApiProperty({ type: [String], description: 'Suggested next prompts', example: ['Any in size 42?'] }) followup_suggestions: string[];
}
