import { Body, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MessagingController as Messaging } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
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
  StreamSuggestionsEventDto,
  StreamThreadEventDto,
} from './dto/stream-event.dto.js';
import { SseConnection } from './sse-connection.js';
import { SseStreamService } from './sse-stream.service.js';
import { toTurnRequest } from '../messaging/dto/send-message.dto.js';

const validation = createValidationPipe();

const EVENTS_DESCRIPTION = [
  'Server-Sent Events, each with `id: <interaction_id>:<seq>`, in this order:',
  `\`thread\` ([payload](${getSchemaPath(StreamThreadEventDto)})) → \`delta\` ([payload](${getSchemaPath(StreamDeltaEventDto)}), repeated) →`,
  `\`card\` ([payload](${getSchemaPath(StreamCardEventDto)}), optional, repeated) → \`message\` ([payload](${getSchemaPath(StreamMessageEventDto)})) →`,
  `\`suggestions\` ([payload](${getSchemaPath(StreamSuggestionsEventDto)})) → \`done\` (\`{}\`).`,
  `A failure after the first event is an \`error\` event ([payload](${getSchemaPath(StreamErrorEventDto)})) and the stream ends.`,
  'A `: ping` comment line keeps idle streams open. Concatenated deltas equal `message.text`.',
].join(' ');

@Messaging('Messaging')
@ApiExtraModels(...STREAM_EVENT_MODELS)
export class StreamController {
  constructor(
    private readonly streams: SseStreamService,
    private readonly config: AppConfig,
  ) {}

  @Post('messages/stream')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an end-user message and stream the reply as Server-Sent Events (resumable with Last-Event-ID)',
    description:
      'Same body as POST /messaging/v1/messages. With `Last-Event-ID: <interaction_id>:<seq>` the request resumes that ' +
      'stream instead (the body is ignored): every event after that id, then the live tail while the turn runs; it never ' +
      'starts a new turn. Replay buffers are kept at least 10 minutes. Errors before the first event are JSON error responses.',
  })
  @ApiBody({ type: SendMessageDto })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id (`<interaction_id>:<seq>`)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: EVENTS_DESCRIPTION,
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: EVENTS_DESCRIPTION },
        example:
          'id: 6740a1b2c3d4e5f601234567:1\nevent: thread\ndata: {"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567"}\n\n' +
          'id: 6740a1b2c3d4e5f601234567:2\nevent: delta\ndata: {"text":"Here"}\n\n',
      },
    },
  })
  @ApiErrors(400, 403, 404, 413, 422, 502)
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
    await this.streams.turn(caller, toTurnRequest(dto, 'sse'), request.id, sink);
  }
}
