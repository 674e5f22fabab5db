import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
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
import { CreateProjectDto, ListProjectsQueryDto, ProjectIdParams, ProjectResponseDto } from './dto/project.dto.js';
import { ProjectsService } from './projects.service.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ManagementController('Projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Idempotent()
  @Post('projects')
  @ApiOperation({
    summary: 'Create a project',
    description: 'A project groups agents; usage and threads can be read per project.',
  })
  @ApiExampleBody(CreateProjectDto, { storefront: { summary: 'A project for the web store', value: { name: 'Storefront' } } })
  @ApiCreatedResponse({ type: ProjectResponseDto })
  @ApiErrors(413, 415, 422)
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateProjectDto): Promise<ProjectResponseDto> {
    return this.projects.create(who, dto);
  }

  @Get('projects')
  @ApiOperation({
    summary: "List the organization's projects",
    description: 'Newest first by default; page with `page[after]`/`page[before]` from `meta` (or follow `links`).',
  })
  @ApiPageResponse(ProjectResponseDto)
  @ApiErrors(422)
  list(
    @CurrentPrincipal() who: Principal,
    @Query() query: ListProjectsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<ProjectResponseDto>> {
    return this.projects.list(who, query, page);
  }

  @Get('projects/:projectId')
  @ApiOperation({ summary: 'Get a project', description: "Another organization's project is 404, as is a deleted one." })
  @ApiOkResponse({ type: ProjectResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { projectId }: ProjectIdParams): Promise<ProjectResponseDto> {
    return this.projects.get(who, projectId);
  }

  @Delete('projects/:projectId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a project and its agents',
    description: 'It leaves listings at once, and the keys and tokens of its agents are refused at once; threads and usage history stay.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { projectId }: ProjectIdParams): Promise<void> {
    return this.projects.delete(who, projectId);
  }
}
