import { ApiProperty } from '@nestjs/swagger';
import { ErrorBodyDto } from '../../../common/errors/error-envelope.js';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import { CardResponseDto, SendMessageResponseDto } from '../../messaging/dto/message-response.dto.js';

/** Payload of the `thread` event (first event of every stream). */
export class StreamThreadEventDto {
  @ApiId('The thread the turn belongs to') thread_id: string;
  @ApiId('The interaction (turn) being streamed; event ids are `<interaction_id>:<seq>`') interaction_id: string;
}

/** A tool call of agent mode as it starts and ends (docs/agents.md). */
export class StreamStepDto {
  @ApiProperty({ description: 'The step id, `s<n>` for the n-th tool call of the turn (the trace names it so)', example: 's1' })
  id: string;
  @ApiProperty({ description: 'The tool as the model called it (`<server>__<tool>` for MCP tools)', example: 'search_knowledge' })
  tool: string;
  @ApiProperty({
    enum: ['started', 'completed', 'failed', 'refused'],
    description: '`started`, then one of `completed`, `failed` or `refused` (a rule or the loop refused the call)',
  })
  status: 'started' | 'completed' | 'failed' | 'refused';
  @ApiProperty({ type: 'integer', required: false, description: 'How long the call took (on its end only)' }) duration_ms?: number;
}

/** Payload of a `step` event (agent mode): a tool call the model asked for, before any `delta`. */
export class StreamStepEventDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The interaction (turn)') interaction_id: string;
  @ApiProperty({ type: StreamStepDto, description: 'The tool call' }) step: StreamStepDto;
}

/** Payload of a `delta` event: the next piece of the reply's text; all deltas concatenated equal `message.text`. */
export class StreamDeltaEventDto {
  @ApiProperty({ example: 'Here are ', description: 'The next piece of the reply text' }) text: string;
}

/** Payload of a `card` event. */
export class StreamCardEventDto {
  @ApiProperty({ type: CardResponseDto, description: 'A card of the reply' }) card: CardResponseDto;
}

/** Payload of the `message` event: the same body as `POST /messaging/v1/messages` answers. */
export class StreamMessageEventDto extends SendMessageResponseDto {}

/** Payload of the `suggestions` event (always sent, possibly with an empty list). */
export class StreamSuggestionsEventDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The interaction (turn)') interaction_id: string;
  @ApiProperty({ type: [String], example: ['Any in size 42?'], description: 'Suggested next prompts (possibly empty)' })
  followup_suggestions: string[];
}

/** Payload of the `error` event: the error envelope; the stream ends after it. */
export class StreamErrorEventDto {
  @ApiProperty({ type: ErrorBodyDto, description: 'The error envelope body' }) error: ErrorBodyDto;
}

export const STREAM_EVENT_MODELS = [
  StreamThreadEventDto,
  StreamStepEventDto,
  StreamDeltaEventDto,
  StreamCardEventDto,
  StreamMessageEventDto,
  StreamSuggestionsEventDto,
  StreamErrorEventDto,
];
