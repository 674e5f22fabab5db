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
import { CreateProjectDto, ListProjectsQueryDto, ProjectIdParams, ProjectResponseDto, UpdateProjectDto } from './dto/project.dto.js';
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

  @Patch('projects/:projectId')
  @ApiOperation({
    summary: 'Update a project',
    description:
      'Renames it and/or sets `thread_retention_days`: threads whose last activity is older are deleted by the retention job, in batches, with their interactions, traces and channel messages; usage totals stay the same. `null` keeps threads forever (the default). Fields left out stay as they are.',
  })
  @ApiExampleBody(UpdateProjectDto, {
    retention: { summary: 'Keep threads 30 days after their last activity', value: { thread_retention_days: 30 } },
    keep: { summary: 'Keep threads forever', value: { thread_retention_days: null } },
    rename: { summary: 'Rename', value: { name: 'Storefront EU' } },
  })
  @ApiOkResponse({ type: ProjectResponseDto })
  @ApiErrors(404, 413, 415, 422)
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { projectId }: ProjectIdParams,
    @Body() dto: UpdateProjectDto,
  ): Promise<ProjectResponseDto> {
    return this.projects.update(who, projectId, dto);
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
