import { Body, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath, type MediaTypeObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { MessagingController } from '../auth/decorators/surface.decorators.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { SseConnection } from '../streaming/sse-connection.js';
import { FeedControlEventDto, FeedMessageEventDto, HandoffRequestDto, HandoffThreadIdParams, ThreadControlDto } from './dto/handoff.dto.js';
import { HandoffStreamsService } from './handoff-streams.service.js';
import { HandoffService } from './handoff.service.js';

const caller = (who: Principal) => ({ organizationId: who.organizationId, agentId: actingAgentId(who) });

/** The thread's stream: its media type and each event's payload (as the other streams document theirs). */
export const FEED_SSE_CONTENT = {
  'text/event-stream': {
    schema: { type: 'string', description: 'Server-Sent Events `message` and `control`, each with a resumable `id`' },
    'x-sse-events': {
      message: { $ref: getSchemaPath(FeedMessageEventDto) },
      control: { $ref: getSchemaPath(FeedControlEventDto) },
    },
  } as MediaTypeObject,
};

/** The end user's side of human handoff (docs/handoff.md). */
@MessagingController('Handoff')
@ApiExtraModels(FeedMessageEventDto, FeedControlEventDto)
export class HandoffController {
  constructor(
    private readonly handoff: HandoffService,
    private readonly streams: HandoffStreamsService,
    private readonly config: AppConfig,
  ) {}

  @Post('threads/:threadId/handoff')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ask for a human',
    description:
      "Hands the thread to the organization's operators: it waits (`pending`) until one accepts. While it waits or an operator " +
      'holds it, sends are recorded for the operator and answered 202; operator messages arrive on the WebSocket session, the ' +
      "thread's event stream and channels. Asking again changes nothing. Needs `handoff.enabled` in the live version (409 `handoff_disabled`).",
  })
  @ApiExampleBody(HandoffRequestDto, {
    reason: { summary: 'With a reason', value: { reason: 'I want to talk to a person about my refund' } },
  })
  @ApiOkResponse({ type: ThreadControlDto })
  @ApiErrors(
    400,
    403,
    { status: 404, code: 'not_found', message: 'Thread not found' },
    { status: 409, code: 'handoff_disabled', message: "Handoff is not enabled in the agent's live version (bundle `handoff.enabled`)" },
    422,
  )
  request(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: HandoffThreadIdParams,
    @Body() body: HandoffRequestDto = {},
  ): Promise<ThreadControlDto> {
    return this.handoff.request(caller(who), threadId, body?.reason);
  }

  @Get('threads/:threadId/events')
  @ApiOperation({
    summary: "The thread's operator messages and control changes (Server-Sent Events, resumable)",
    description:
      'For clients without a WebSocket session: `control` events (a handoff was asked for, accepted, released, timed out; the ' +
      'first event is the current state, `change: "current"`) and `message` events (operator messages). Resume with ' +
      '`Last-Event-ID`: every event after it, then live. The stream stays open; a `: ping` comment keeps it alive.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this event id (`<ms>-<n>`, as the stream wrote it)',
    schema: { type: 'string', maxLength: 25, pattern: '^\\d{1,15}-\\d{1,9}$' },
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream', content: FEED_SSE_CONTENT })
  @ApiErrors(400, 403, { status: 404, code: 'not_found', message: 'Thread not found' }, 422)
  async events(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: HandoffThreadIdParams,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.streams.thread(caller(who), threadId, lastEventId, SseConnection.forReply(reply, this.config.streaming));
  }
}
