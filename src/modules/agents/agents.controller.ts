import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ProjectIdParams } from '../projects/dto/project.dto.js';
import { AgentsService } from './agents.service.js';
import { AgentIdParams, AgentResponseDto, CreateAgentDto, ListAgentsQueryDto, UpdateAgentDto } from '../agent-records/dto/agent.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ManagementController('Agents')
// The spec declares 400, 401, 403, 404, 409, 422 and 500 for every agent and version operation.
@ApiErrors(400, 403, 404, 409, 422)
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Idempotent()
  @Post('projects/:projectId/agents')
  @ApiOperation({
    summary: 'Create an agent',
    description: 'The agent has no live version until one is published: create a version (e.g. from a template), then publish it.',
  })
  @ApiExampleBody(CreateAgentDto, {
    shopping: {
      summary: 'A shopping assistant (runtime v1)',
      value: { name: 'Store assistant', description: 'Answers shoppers on the web store', runtime: 'v1' },
    },
    knowledge: { summary: 'A knowledge assistant (runtime v2)', value: { name: 'Help center', runtime: 'v2' } },
  })
  @ApiCreatedResponse({ type: AgentResponseDto })
  @ApiErrors(404, 413, 415, 422)
  create(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectIdParams,
    @Body() dto: CreateAgentDto,
  ): Promise<AgentResponseDto> {
    return this.agents.create(who, projectId, dto);
  }

  @Get('projects/:projectId/agents')
  @ApiOperation({
    summary: "List the project's agents",
    description: '`filters[name]` keeps agents whose name contains it (case-insensitive). Newest first by default.',
  })
  @ApiPageResponse(AgentResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectIdParams,
    @Query() query: ListAgentsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<AgentResponseDto>> {
    return this.agents.list(who, projectId, query, page);
  }

  @Get('agents/:agentId')
  @ApiOperation({
    summary: 'Get an agent',
    description: '`live_version_id` and `live_version_tag` say which version and revision answer messages; null until a publish.',
  })
  @ApiOkResponse({ type: AgentResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<AgentResponseDto> {
    return this.agents.get(who, agentId);
  }

  @Patch('agents/:agentId')
  @ApiOperation({
    summary: 'Rename an agent (or change its description)',
    description:
      'A rename re-publishes the live revision with the new name as a new revision that becomes live; the live version stays the same.',
  })
  @ApiExampleBody(UpdateAgentDto, {
    rename: { summary: 'Rename', value: { name: 'Storefront assistant' } },
    describe: { summary: 'Change the description', value: { description: 'Answers shoppers and tracks orders' } },
  })
  @ApiOkResponse({ type: AgentResponseDto })
  @ApiErrors(404, 413, 415, 422)
  update(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams, @Body() dto: UpdateAgentDto): Promise<AgentResponseDto> {
    return this.agents.update(who, agentId, dto);
  }

  @Delete('agents/:agentId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an agent',
    description: 'Deletes its versions and keys (its tokens are refused at once); its threads and usage history stay.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<void> {
    return this.agents.delete(who, agentId);
  }
}
