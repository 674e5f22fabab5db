import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { AnalyticsService } from './analytics.service.js';
import { AnalyticsDto, AnalyticsQueryDto } from './dto/analytics.dto.js';

@ManagementController('Analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('agents/:agentId/analytics')
  @ApiOperation({
    summary: "An agent's outcomes: containment, handoff and decline rates, feedback, latency, tokens",
    description:
      'Per revision tag, traffic-split arm (version) or UTC day over the whole UTC days of [created_from, created_to]: threads (by ' +
      'their first turn) and their outcome — handed off, declined (the last agent reply declined) or contained — messages, ' +
      'feedback up/down, reply latency p50/p95 and tokens. From daily roll-ups kept as turns are written; evaluation runs never count.',
  })
  @ApiOkResponse({ type: AnalyticsDto })
  @ApiErrors(404, 422)
  report(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: AnalyticsQueryDto,
  ): Promise<AnalyticsDto> {
    return this.analytics.report(who, agentId, query);
  }
}
