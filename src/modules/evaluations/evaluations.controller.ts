import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  EvaluationAcceptedDto,
  EvaluationIdParams,
  EvaluationParams,
  EvaluationResponseDto,
  ListEvaluationsQueryDto,
} from './dto/evaluation.dto.js';
import { EvaluationsService } from './evaluations.service.js';

@ManagementController('Evaluations')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Idempotent()
  @Post('agents/:agentId/versions/:versionId/evaluations')
  @HttpCode(202)
  @ApiOperation({
    summary: "Evaluate a version's current revision against the agent's test cases",
    description:
      'Queues a run (202 `{id, status}`); poll the evaluation until `status` is `completed` (or `failed`). Each case runs in a ' +
      'throwaway conversation that never appears in thread lists, usage, analytics or webhooks. The result compares itself with ' +
      "the live version's latest run, regressions first. A passing run lets the revision through the publish gate.",
  })
  @ApiAcceptedResponse({ type: EvaluationAcceptedDto })
  @ApiErrors(404, 422)
  start(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: EvaluationParams): Promise<EvaluationAcceptedDto> {
    return this.evaluations.start(who, agentId, versionId);
  }

  @Get('agents/:agentId/versions/:versionId/evaluations')
  @ApiOperation({ summary: "List a version's evaluation runs", description: 'Newest first by default; items carry no per-case results.' })
  @ApiPageResponse(EvaluationResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: EvaluationParams,
    @Query() query: ListEvaluationsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<EvaluationResponseDto>> {
    return this.evaluations.list(who, agentId, versionId, query, page);
  }

  @Get('agents/:agentId/versions/:versionId/evaluations/:evaluationId')
  @ApiOperation({
    summary: 'Get an evaluation run with its results',
    description: 'Per case and per turn: the reply and the reasons each check failed; `compared_to` lists the regressions.',
  })
  @ApiOkResponse({ type: EvaluationResponseDto })
  @ApiErrors(404, 422)
  get(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId, evaluationId }: EvaluationIdParams,
  ): Promise<EvaluationResponseDto> {
    return this.evaluations.get(who, agentId, versionId, evaluationId);
  }
}
