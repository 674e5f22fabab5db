import { Body, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { ForceQueryDto } from './dto/force-query.dto.js';
import { TrafficResponseDto, UpdateTrafficDto } from './dto/traffic.dto.js';
import { TrafficService } from './traffic.service.js';

/** Example ids of the split example; the OpenAPI example test puts its own published versions in their place. */
export const TRAFFIC_EXAMPLE_LIVE_VERSION = '6740a1b2c3d4e5f601234567';
export const TRAFFIC_EXAMPLE_CANDIDATE_VERSION = '6740a1b2c3d4e5f60123abcd';

@ManagementController('Agent versions')
export class TrafficController {
  constructor(private readonly traffic: TrafficService) {}

  @Get('agents/:agentId/traffic')
  @ApiOperation({
    summary: "The agent's traffic split between versions",
    description:
      'The arms in layout order with their shares; `splits` is empty when the agent has no split (the live version answers every thread).',
  })
  @ApiOkResponse({ type: TrafficResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<TrafficResponseDto> {
    return this.traffic.get(who, agentId);
  }

  @Put('agents/:agentId/traffic')
  @ApiOperation({
    summary: 'Split new threads between published versions',
    description:
      'Replaces the split. 2..10 distinct published versions of the agent, whole percents 1..100 summing to 100, the live version ' +
      "one of them (422 `validation_error` naming the field otherwise; a version_id that is not one of this agent's is 404). " +
      'A new thread gets an arm by a stable hash of (agent, user_id), so an end user stays on one arm; an existing thread stays ' +
      'on its version while that version is not archived. A non-live arm answers with its current revision as of this call. See docs/releases.md. ' +
      'With `publish_requires_passing_evaluation` on the agent, a non-live arm whose revision has no passing evaluation is 409 `evaluation_required` ' +
      '(`?force=true` splits anyway, audited as `traffic.update_forced`).',
  })
  @ApiExampleBody(UpdateTrafficDto, {
    canary: {
      summary: 'Send 10 % of new end users to a candidate version',
      value: {
        splits: [
          { version_id: TRAFFIC_EXAMPLE_LIVE_VERSION, percent: 90 },
          { version_id: TRAFFIC_EXAMPLE_CANDIDATE_VERSION, percent: 10 },
        ],
      },
    },
  })
  @ApiOkResponse({ type: TrafficResponseDto })
  @ApiErrors(
    404,
    413,
    415,
    {
      status: 409,
      code: 'evaluation_required',
      message: 'The agent requires a passing evaluation before v2.1 serves end users; run one, or pass force=true',
      description:
        'The agent requires a passing evaluation and a non-live arm has none (`evaluation_required`; `?force=true` splits anyway)',
    },
    {
      status: 422,
      code: 'validation_error',
      message: 'The request is not valid',
      details: [{ field: 'splits', message: 'the percents must sum to 100 (they sum to 95)' }],
    },
  )
  put(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Body() dto: UpdateTrafficDto,
    @Query() { force }: ForceQueryDto,
  ): Promise<TrafficResponseDto> {
    return this.traffic.put(who, agentId, dto, force ?? false);
  }

  @Delete('agents/:agentId/traffic')
  @HttpCode(204)
  @ApiOperation({
    summary: 'End the traffic split',
    description:
      'New threads, and threads on other versions, answer with the live version again; the live version is unchanged. Without a split this is a 204 too.',
  })
  @ApiNoContentResponse({ description: 'The split is ended' })
  @ApiErrors(404, 422)
  remove(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<void> {
    return this.traffic.remove(who, agentId);
  }
}
