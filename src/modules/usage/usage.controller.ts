import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { AgentIdParams, GroupedUsageDto, ProjectUsageParams, UsageQueryDto } from './dto/usage.dto.js';
import { UsageService } from './usage.service.js';

@ManagementController('Usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('agents/:agentId/usage')
  @ApiOperation({
    summary: "An agent's token usage",
    description:
      'Interactions created in [created_from, created_to], both optional and inclusive. `group_by=version_tag` adds `by_version`: ' +
      'the sums per revision tag that answered (the arms of a traffic split).',
  })
  @ApiOkResponse({ type: GroupedUsageDto })
  @ApiErrors(404, 422)
  ofAgent(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: UsageQueryDto,
  ): Promise<GroupedUsageDto> {
    return this.usage.ofAgent(who, agentId, query);
  }

  @Get('projects/:projectId/usage')
  @ApiOperation({
    summary: "A project's token usage across all its agents, deleted agents included",
    description: 'Interactions created in [created_from, created_to], both optional and inclusive.',
  })
  @ApiOkResponse({ type: GroupedUsageDto })
  @ApiErrors(404, 422)
  ofProject(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectUsageParams,
    @Query() query: UsageQueryDto,
  ): Promise<GroupedUsageDto> {
    return this.usage.ofProject(who, projectId, query);
  }
}
