import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController, MessagingController } from '../auth/decorators/surface.decorators.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { FeedbackDto, FeedbackResponseDto, ListFeedbackQueryDto, MessageIdParams } from './dto/feedback.dto.js';
import { FeedbackService } from './feedback.service.js';

@MessagingController('Feedback')
export class FeedbackMessagingController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post('messages/:messageId/feedback')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rate an agent message (thumbs up or down)',
    description:
      "The end user's rating of a reply (`message.id` of a send), with an optional comment. Rating again replaces it: the latest " +
      'rating stands. Endpoints subscribed to `message.feedback` receive it. Also a WebSocket `feedback` frame.',
  })
  @ApiExampleBody(FeedbackDto, {
    up: { summary: 'Helpful', value: { rating: 'up' } },
    down: { summary: 'Not helpful, with a comment', value: { rating: 'down', comment: 'It did not answer my question' } },
  })
  @ApiOkResponse({ type: FeedbackResponseDto })
  @ApiErrors(400, 403, { status: 404, code: 'not_found', message: 'Message not found' }, 413, 415, 422)
  rate(
    @CurrentPrincipal() who: Principal,
    @Param() { messageId }: MessageIdParams,
    @Body() dto: FeedbackDto,
  ): Promise<FeedbackResponseDto> {
    return this.feedback.rate({ organizationId: who.organizationId, agentId: actingAgentId(who) }, messageId, dto);
  }
}

@ManagementController('Feedback')
export class FeedbackManagementController {
  constructor(private readonly feedback: FeedbackService) {}

  @Get('agents/:agentId/feedback')
  @ApiOperation({
    summary: "List end users' ratings of the agent's messages",
    description: 'Newest first; one item per rated message (its latest rating). Filters: `rating`, `version_tag`, `thread_id`, `user_id`.',
  })
  @ApiPageResponse(FeedbackResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListFeedbackQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<FeedbackResponseDto>> {
    return this.feedback.list(who, agentId, query, page);
  }
}
