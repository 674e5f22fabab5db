import { Body, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath, type MediaTypeObject } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MessagingController as Messaging } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { createValidationPipe } from '../../common/validation/validation-pipe.js';
import { AppConfig } from '../../config/app-config.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { SendMessageDto } from '../messaging/dto/send-message.dto.js';
import {
  STREAM_EVENT_MODELS,
  StreamCardEventDto,
  StreamDeltaEventDto,
  StreamErrorEventDto,
  StreamMessageEventDto,
  StreamStepEventDto,
  StreamSuggestionsEventDto,
  StreamThreadEventDto,
} from './dto/stream-event.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { recordIdempotentStream } from '../idempotency/idempotency-context.js';
import { SseConnection } from './sse-connection.js';
import { SseStreamService } from './sse-stream.service.js';
import { toTurnRequest } from '../messaging/dto/send-message.dto.js';
import { SEND_ERRORS, SEND_EXAMPLES } from '../messaging/dto/send-message.examples.js';

const validation = createValidationPipe();

const EVENTS_DESCRIPTION = [
  'Server-Sent Events, each with `id: <interaction_id>:<seq>`, in this order:',
  `\`thread\` ([payload](${getSchemaPath(StreamThreadEventDto)})) → \`step\` ([payload](${getSchemaPath(StreamStepEventDto)}), agent mode only, repeated) →`,
  `\`delta\` ([payload](${getSchemaPath(StreamDeltaEventDto)}), repeated) →`,
  `\`card\` ([payload](${getSchemaPath(StreamCardEventDto)}), optional, repeated) → \`message\` ([payload](${getSchemaPath(StreamMessageEventDto)})) →`,
  `\`suggestions\` ([payload](${getSchemaPath(StreamSuggestionsEventDto)})) → \`done\` (\`{}\`).`,
  `A failure after the first event is an \`error\` event ([payload](${getSchemaPath(StreamErrorEventDto)})) and the stream ends.`,
  'A `: ping` comment line keeps idle streams open. Concatenated deltas equal `message.text`.',
].join(' ');

/** The stream's media type: its events, and each event's `data:` schema under `x-sse-events` (OpenAPI 3.0 cannot type stream items). */
const SSE_MEDIA_TYPE = {
  schema: { type: 'string', description: EVENTS_DESCRIPTION },
  'x-sse-events': {
    thread: { $ref: getSchemaPath(StreamThreadEventDto) },
    step: { $ref: getSchemaPath(StreamStepEventDto) },
    delta: { $ref: getSchemaPath(StreamDeltaEventDto) },
    card: { $ref: getSchemaPath(StreamCardEventDto) },
    message: { $ref: getSchemaPath(StreamMessageEventDto) },
    suggestions: { $ref: getSchemaPath(StreamSuggestionsEventDto) },
    done: { type: 'object', additionalProperties: false, description: 'The turn is finished: `{}`' },
    error: { $ref: getSchemaPath(StreamErrorEventDto) },
  },
  example: [
    ['1', 'thread', '{"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567"}'],
    ['2', 'delta', '{"text":"Here are "}'],
    ['3', 'delta', '{"text":"two picks."}'],
    [
      '4',
      'message',
      '{"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567","message":{"text":"Here are two picks.","cards":[]}}',
    ],
    [
      '5',
      'suggestions',
      '{"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567","followup_suggestions":["Any in size 42?"]}',
    ],
    ['6', 'done', '{}'],
  ]
    .map(([seq, event, data]) => `id: 6740a1b2c3d4e5f601234567:${seq}\nevent: ${event}\ndata: ${data}\n\n`)
    .join(''),
} as MediaTypeObject;

@Messaging('Messaging')
@ApiExtraModels(...STREAM_EVENT_MODELS)
export class StreamController {
  constructor(
    private readonly streams: SseStreamService,
    private readonly config: AppConfig,
  ) {}

  @Idempotent({ stream: true })
  @Post('messages/stream')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an end-user message and stream the reply as Server-Sent Events (resumable with Last-Event-ID)',
    description:
      'Same body as POST /messaging/v1/messages. With `Last-Event-ID: <interaction_id>:<seq>` the request resumes that ' +
      'stream instead (the body is ignored): every event after that id, then the live tail while the turn runs; it never ' +
      'starts a new turn. Replay buffers are kept at least 10 minutes. Errors before the first event are JSON error responses.',
  })
  @ApiExampleBody(SendMessageDto, SEND_EXAMPLES)
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id (`<interaction_id>:<seq>`)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: EVENTS_DESCRIPTION,
    content: {
      'text/event-stream': SSE_MEDIA_TYPE,
    },
  })
  @ApiErrors(...SEND_ERRORS, 413)
  async stream(
    @CurrentPrincipal() who: Principal,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const caller = { organizationId: who.organizationId, agentId: actingAgentId(who) };
    const sink = SseConnection.forReply(reply, this.config.streaming);
    if (lastEventId !== undefined && lastEventId.trim() !== '') {
      await this.streams.resume(caller, lastEventId, request.id, sink);
      return;
    }
    const dto = (await validation.transform(body, { type: 'body', metatype: SendMessageDto })) as SendMessageDto;
    const beforeDone = recordIdempotentStream(request, sink.connection);
    await this.streams.turn(caller, toTurnRequest(dto, 'sse'), request.id, { ...sink, beforeDone });
  }
}
