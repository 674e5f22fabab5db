import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { AgentIdParams } from '../agents/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import { AgentVersionParams } from './dto/version-params.dto.js';
import { CreateVersionDto, PullQueryDto, PushBundleDto, UpdateVersionDto } from './dto/version-request.dto.js';
import { BundleResponseDto, PushResponseDto, VersionResponseDto } from './dto/version-response.dto.js';
import { VersionsService } from './versions.service.js';

@ManagementController('Agent versions')
// The spec declares 400, 401, 403, 404, 409, 422 and 500 for every agent and version operation.
@ApiErrors(400, 403, 404, 409, 422)
export class VersionsController {
  constructor(private readonly versions: VersionsService) {}

  @Post('agents/:agentId/versions')
  @ApiOperation({
    summary: 'Create a draft version: empty, from a template, or a clone of another version',
    description: 'Its starting content is revision vN.0.',
  })
  @ApiCreatedResponse({ type: VersionResponseDto })
  @ApiErrors(404, 413, 415, 422)
  create(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Body() dto: CreateVersionDto,
  ): Promise<VersionResponseDto> {
    return this.versions.create(who, agentId, dto);
  }

  @Get('agents/:agentId/versions')
  @ApiOperation({ summary: "List the agent's versions newest first; revisions are items unless filters[exclude_revisions]=true" })
  @ApiPageResponse(VersionResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListVersionsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<VersionResponseDto>> {
    return this.versions.list(who, agentId, query, page);
  }

  @Get('agents/:agentId/versions/:versionId')
  @ApiOperation({ summary: 'Get a version' })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<VersionResponseDto> {
    return this.versions.get(who, agentId, versionId);
  }

  @Patch('agents/:agentId/versions/:versionId')
  @ApiOperation({ summary: "Update a version's label, tags and notes (null clears)" })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 413, 415, 422)
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Body() dto: UpdateVersionDto,
  ): Promise<VersionResponseDto> {
    return this.versions.update(who, agentId, versionId, dto);
  }

  @Post('agents/:agentId/versions/:versionId/publish')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make the version live with its current revision (ship, switch or roll back)',
    description: '409 `version_archived` for an archived version.',
  })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 409, 422)
  publish(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<VersionResponseDto> {
    return this.versions.publish(who, agentId, versionId);
  }

  @Post('agents/:agentId/versions/:versionId/archive')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Archive a version that is not live',
    description: '409 `version_is_live` for the live version: publish another one first.',
  })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 409, 422)
  archive(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<VersionResponseDto> {
    return this.versions.archive(who, agentId, versionId);
  }

  @Post('agents/:agentId/versions/:versionId/push')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a bundle and commit a new revision vN.R',
    description:
      'An identical bundle commits nothing and returns the current revision. An invalid bundle is 422 with details[].field into the bundle; an archived version is 409 `version_archived`.',
  })
  @ApiOkResponse({ type: PushResponseDto })
  @ApiErrors(404, 409, 413, 415, 422)
  push(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Body() dto: PushBundleDto,
  ): Promise<PushResponseDto> {
    return this.versions.push(who, agentId, versionId, dto);
  }

  @Get('agents/:agentId/versions/:versionId/pull')
  @ApiOperation({ summary: "Download the version's bundle: the current revision, or the one tagged version_tag" })
  @ApiOkResponse({ type: BundleResponseDto })
  @ApiErrors(404, 422)
  pull(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Query() { version_tag }: PullQueryDto,
  ): Promise<BundleResponseDto> {
    return this.versions.pull(who, agentId, versionId, version_tag);
  }
}
