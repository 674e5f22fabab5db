import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { MessagingController as Messaging } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { FollowupSuggestionsResponseDto, SendMessageResponseDto, WelcomeMessageResponseDto } from './dto/message-response.dto.js';
import { FollowupSuggestionsRequestDto, RerunDto, SendMessageDto, ThreadIdParams, toTurnRequest } from './dto/send-message.dto.js';
import { MessagingService, type TurnCaller } from './messaging.service.js';

const caller = (who: Principal): TurnCaller => ({ organizationId: who.organizationId, agentId: actingAgentId(who) });

@Messaging('Messaging')
export class MessagingController {
  constructor(private readonly messaging: MessagingService) {}

  @Post('messages')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send an end-user message and get the reply (new thread when thread_id is absent)' })
  @ApiOkResponse({ type: SendMessageResponseDto })
  @ApiErrors(400, 403, 404, 413, 422, 502, 504)
  send(@CurrentPrincipal() who: Principal, @Body() body: SendMessageDto): Promise<SendMessageResponseDto> {
    return this.messaging.send(caller(who), toTurnRequest(body, 'json'));
  }

  @Post('threads/:threadId/rerun')
  @HttpCode(200)
  @ApiOperation({ summary: "Answer the thread's last end-user message again with the current live version" })
  @ApiOkResponse({ type: SendMessageResponseDto })
  @ApiErrors(400, 403, 404, 422, 502, 504)
  rerun(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Body() body: RerunDto = {},
  ): Promise<SendMessageResponseDto> {
    return this.messaging.rerun(caller(who), threadId, body?.include_trace ?? false);
  }

  @Get('welcome-message')
  @ApiOperation({ summary: "The live version's greeting, for opening a conversation UI before the first message" })
  @ApiOkResponse({ type: WelcomeMessageResponseDto })
  @ApiErrors(400, 403, 404)
  welcome(@CurrentPrincipal() who: Principal): Promise<WelcomeMessageResponseDto> {
    return this.messaging.welcome(caller(who));
  }

  /** The plural path of the spec's first table answers too. */
  @Get('welcome-messages')
  @ApiOperation({ summary: 'Same as GET /messaging/v1/welcome-message (earlier plural path)' })
  @ApiOkResponse({ type: WelcomeMessageResponseDto })
  @ApiErrors(400, 403, 404)
  welcomePlural(@CurrentPrincipal() who: Principal): Promise<WelcomeMessageResponseDto> {
    return this.messaging.welcome(caller(who));
  }

  @Post('followup-suggestions')
  @HttpCode(200)
  @ApiOperation({ summary: 'Suggested next prompts from a thread and/or a text given by the caller' })
  @ApiOkResponse({ type: FollowupSuggestionsResponseDto })
  @ApiErrors(400, 403, 404, 422)
  followupSuggestions(
    @CurrentPrincipal() who: Principal,
    @Body() body: FollowupSuggestionsRequestDto,
  ): Promise<FollowupSuggestionsResponseDto> {
    return this.messaging.followupSuggestions(caller(who), body);
  }
}
