import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { requestContextInterceptor } from '../../common/http/request-context.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import { Auth, CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { Credential, type Principal } from '../auth/principal.js';
import { SseConnection } from '../streaming/sse-connection.js';
import {
  HandoffRequestDto,
  HandoffThreadIdParams,
  InboxItemDto,
  InboxQueryDto,
  OperatorMessageDto,
  OperatorMessageResponseDto,
  ThreadControlDto,
} from './dto/handoff.dto.js';
import { FEED_SSE_CONTENT } from './handoff.controller.js';
import { HandoffStreamsService } from './handoff-streams.service.js';
import { HandoffService } from './handoff.service.js';

/** Operator routes: the management surface, for organization users signed in (login sessions) only. */
const OperatorRoutes = () =>
  applyDecorators(
    Controller('management/v1'),
    ApiTags('Handoff'),
    Auth(Credential.Session),
    ApiErrors(500),
    UseInterceptors(requestContextInterceptor),
  );

const NOT_FOUND = { status: 404, code: 'not_found', message: 'Thread not found' };
const conflict = (message: string) => ({ status: 409, code: 'handoff_conflict', message });

/** What operators do to a thread (docs/handoff.md): each is a compare-and-set, audited, and sent as a webhook. */
@OperatorRoutes()
export class OperatorsController {
  constructor(private readonly handoff: HandoffService) {}

  @Post('threads/:threadId/takeover')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take a thread over',
    description: 'Straight to `human` with the caller as assignee, from `agent` or `pending`. The agent stops answering at once.',
  })
  @ApiExampleBody(HandoffRequestDto, { reason: { summary: 'With a reason', value: { reason: 'VIP customer' } } })
  @ApiOkResponse({ type: ThreadControlDto })
  @ApiErrors(NOT_FOUND, conflict('Cannot take over this thread: another operator holds it'), 422)
  takeover(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: HandoffThreadIdParams,
    @Body() body: HandoffRequestDto = {},
  ): Promise<ThreadControlDto> {
    return this.handoff.takeover(who, threadId, body?.reason);
  }

  @Post('threads/:threadId/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept a waiting thread',
    description: '`pending` → `human`, the caller as assignee. One operator wins; the others get 409.',
  })
  @ApiOkResponse({ type: ThreadControlDto })
  @ApiErrors(NOT_FOUND, conflict('Cannot accept this thread: another operator holds it'), 422)
  accept(@CurrentPrincipal() who: Principal, @Param() { threadId }: HandoffThreadIdParams): Promise<ThreadControlDto> {
    return this.handoff.accept(who, threadId);
  }

  @Post('threads/:threadId/messages')
  @ApiOperation({
    summary: 'Write to the end user',
    description:
      'The assignee only (others: 409). Delivered on every surface: WebSocket sessions, the thread event stream, SMS/WhatsApp, webhooks, the transcript.',
  })
  @ApiExampleBody(OperatorMessageDto, { hello: { summary: 'A message', value: { text: 'Hi, I am Ana from support. Let me look.' } } })
  @ApiCreatedResponse({ type: OperatorMessageResponseDto })
  @ApiErrors(NOT_FOUND, conflict('Cannot write to this thread: another operator holds it'), 413, 415, 422)
  message(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: HandoffThreadIdParams,
    @Body() body: OperatorMessageDto,
  ): Promise<OperatorMessageResponseDto> {
    return this.handoff.message(who, threadId, body.text);
  }

  @Post('threads/:threadId/release')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Hand the thread back to the agent',
    description: "The assignee only (others: 409). The agent answers the next message, with the operator's messages in its history.",
  })
  @ApiOkResponse({ type: ThreadControlDto })
  @ApiErrors(NOT_FOUND, conflict('Cannot release this thread: another operator holds it'), 422)
  release(@CurrentPrincipal() who: Principal, @Param() { threadId }: HandoffThreadIdParams): Promise<ThreadControlDto> {
    return this.handoff.release(who, threadId);
  }
}

/** The operators' inbox (organization key or login session). */
@ManagementController('Handoff')
export class InboxController {
  constructor(
    private readonly handoff: HandoffService,
    private readonly streams: HandoffStreamsService,
    private readonly config: AppConfig,
  ) {}

  @Get('inbox')
  @ApiOperation({
    summary: 'Threads waiting for or held by an operator, oldest request first',
    description: "`control` narrows to `pending` or `human`; `assignee=me` to the calling operator's threads (login sessions only).",
  })
  @ApiPageResponse(InboxItemDto)
  @ApiErrors(422)
  list(
    @CurrentPrincipal() who: Principal,
    @Query() query: InboxQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<InboxItemDto>> {
    return this.handoff.inbox(who, query, page);
  }

  @Get('inbox/stream')
  @ApiOperation({
    summary: 'Inbox changes as Server-Sent Events (resumable)',
    description:
      '`control` events (requested, accepted, takeover, released, timed_out) and `message` events (end-user and operator messages ' +
      'while a thread is not under agent control) of every thread of the organization. Resume with `Last-Event-ID`.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this event id (`<ms>-<n>`, as the stream wrote it)',
    schema: { type: 'string', maxLength: 25, pattern: '^\\d{1,15}-\\d{1,9}$' },
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream', content: FEED_SSE_CONTENT })
  @ApiErrors(404)
  async stream(
    @CurrentPrincipal() who: Principal,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.streams.inbox(who.organizationId, lastEventId, SseConnection.forReply(reply, this.config.streaming));
  }
}
