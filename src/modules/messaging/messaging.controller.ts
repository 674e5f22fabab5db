import { Body, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MessagingController as Messaging } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import {
  FollowupSuggestionsResponseDto,
  HeldMessageResponseDto,
  isHeld,
  SendMessageResponseDto,
  WelcomeMessageResponseDto,
  type TurnOutcome,
} from './dto/message-response.dto.js';
import { FollowupSuggestionsRequestDto, RerunDto, SendMessageDto, ThreadIdParams, toTurnRequest } from './dto/send-message.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { MessagingService } from './messaging.service.js';
import { TurnPipeline } from './turn-pipeline.js';
import type { TurnCaller } from './turn.types.js';
import { NO_ACTIVE_VERSION, SEND_ERRORS, SEND_EXAMPLES } from './dto/send-message.examples.js';

const caller = (who: Principal): TurnCaller => ({ organizationId: who.organizationId, agentId: actingAgentId(who) });

@Messaging('Messaging')
export class MessagingController {
  constructor(
    private readonly messaging: MessagingService,
    private readonly turns: TurnPipeline,
  ) {}

  @Idempotent()
  @Post('messages')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an end-user message and get the reply',
    description:
      'Without `thread_id` a new thread starts; to continue it, send the `thread_id` of the reply. The live version answers. ' +
      'For token-by-token output use POST /messaging/v1/messages/stream (same body). While the thread waits for or is held by ' +
      'an operator (docs/handoff.md) the message is recorded for them, no engine runs, and the answer is 202 with the control.',
  })
  @ApiExampleBody(SendMessageDto, SEND_EXAMPLES)
  @ApiOkResponse({ type: SendMessageResponseDto })
  @ApiAcceptedResponse({ type: HeldMessageResponseDto, description: 'The thread is not under agent control: recorded for the operator' })
  @ApiErrors(...SEND_ERRORS, 413, 504)
  async send(
    @CurrentPrincipal() who: Principal,
    @Body() body: SendMessageDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TurnOutcome> {
    const outcome = await this.turns.run(caller(who), toTurnRequest(body, 'json'));
    if (isHeld(outcome)) void reply.status(202);
    return outcome;
  }

  @Idempotent()
  @Post('threads/:threadId/rerun')
  @HttpCode(200)
  @ApiOperation({
    summary: "Answer the thread's last end-user message again",
    description:
      'Runs the last end-user message of the thread again on the current live version and appends the new reply. The body is optional.',
  })
  @ApiExampleBody(RerunDto, { trace: { summary: 'Rerun and include the reasoning trace', value: { include_trace: true } } })
  @ApiOkResponse({ type: SendMessageResponseDto })
  @ApiErrors(
    400,
    403,
    { status: 404, code: 'not_found', message: 'Thread not found' },
    { status: 409, code: 'handoff_conflict', message: 'The thread is under human control: nothing is rerun' },
    422,
    502,
    504,
  )
  async rerun(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Body() body: RerunDto = {},
  ): Promise<SendMessageResponseDto> {
    // Admission refuses a rerun of a thread the agent does not hold, so the outcome is always an answer.
    return (await this.turns.run(caller(who), {
      origin: { kind: 'rerun' },
      threadId,
      includeTrace: body?.include_trace ?? false,
    })) as SendMessageResponseDto;
  }

  @Get('welcome-message')
  @ApiOperation({
    summary: "The live version's greeting",
    description: 'For opening a conversation UI before the first message: the welcome message and its suggested prompts.',
  })
  @ApiOkResponse({ type: WelcomeMessageResponseDto })
  @ApiErrors(400, 403, NO_ACTIVE_VERSION)
  welcome(@CurrentPrincipal() who: Principal): Promise<WelcomeMessageResponseDto> {
    return this.messaging.welcome(caller(who));
  }

  /** The plural path of the spec's first table answers too. */
  @Get('welcome-messages')
  @ApiOperation({ summary: "The live version's greeting (earlier plural path)", description: 'Same as GET /messaging/v1/welcome-message.' })
  @ApiOkResponse({ type: WelcomeMessageResponseDto })
  @ApiErrors(400, 403, NO_ACTIVE_VERSION)
  welcomePlural(@CurrentPrincipal() who: Principal): Promise<WelcomeMessageResponseDto> {
    return this.messaging.welcome(caller(who));
  }

  @Post('followup-suggestions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Suggested next prompts',
    description: 'From a thread of this agent (`thread_id`), from a text you give (e.g. what the user is looking at), or both.',
  })
  @ApiExampleBody(FollowupSuggestionsRequestDto, {
    text: { summary: 'From a text', value: { text: 'Trail running shoes, waterproof', limit: 3 } },
  })
  @ApiOkResponse({ type: FollowupSuggestionsResponseDto })
  @ApiErrors(400, 403, NO_ACTIVE_VERSION, 422)
  followupSuggestions(
    @CurrentPrincipal() who: Principal,
    @Body() body: FollowupSuggestionsRequestDto,
  ): Promise<FollowupSuggestionsResponseDto> {
    return this.messaging.followupSuggestions(caller(who), body);
  }
}
