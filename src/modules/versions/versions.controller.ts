import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ForceQueryDto } from './dto/force-query.dto.js';
import { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import { AgentVersionParams } from './dto/version-params.dto.js';
import { CreateVersionDto, PullQueryDto, PushBundleDto, UpdateVersionDto } from './dto/version-request.dto.js';
import { BundleResponseDto, PushResponseDto, VersionResponseDto } from './dto/version-response.dto.js';
import { VersionsService } from './versions.service.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ManagementController('Agent versions')
// The spec declares 400, 401, 403, 404, 409, 422 and 500 for every agent and version operation.
@ApiErrors(400, 403, 404, 409, 422)
export class VersionsController {
  constructor(private readonly versions: VersionsService) {}

  @Idempotent()
  @Post('agents/:agentId/versions')
  @ApiOperation({
    summary: 'Create a draft version: empty, from a template, or a clone of another version',
    description: 'Its starting content is revision vN.0. Publish it to make it live; push to change its bundle.',
  })
  @ApiExampleBody(CreateVersionDto, {
    template: { summary: 'From the shopping template', value: { source: 'template', template: 'shopping-assistant', label: 'First try' } },
    empty: { summary: 'An empty bundle', value: { source: 'empty', label: 'Scratch', tags: ['experiment'] } },
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
  @ApiOperation({
    summary: "List the agent's versions",
    description: 'Newest first by default. Pushed revisions are items too (`is_revision: true`) unless `filters[exclude_revisions]=true`.',
  })
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
  @ApiOperation({ summary: 'Get a version', description: 'Its status, whether it is live, its current revision tag and digest.' })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<VersionResponseDto> {
    return this.versions.get(who, agentId, versionId);
  }

  @Patch('agents/:agentId/versions/:versionId')
  @ApiOperation({
    summary: "Update a version's label, tags and notes",
    description: '`null` clears a field. The configuration changes only through push.',
  })
  @ApiExampleBody(UpdateVersionDto, {
    label: { summary: 'Label and tags', value: { label: 'Holiday campaign', tags: ['holiday'] } },
    clear: { summary: 'Clear the notes', value: { notes: null } },
  })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 413, 415, 422)
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Body() dto: UpdateVersionDto,
  ): Promise<VersionResponseDto> {
    return this.versions.update(who, agentId, versionId, dto);
  }

  @Idempotent()
  @Post('agents/:agentId/versions/:versionId/publish')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make the version live with its current revision (ship, switch or roll back)',
    description:
      'The previous live version stays published. 409 `version_archived` for an archived version. When the agent has ' +
      '`publish_requires_passing_evaluation`, a revision whose latest evaluation did not pass (or that was never evaluated) is ' +
      '409 `evaluation_required`; `?force=true` publishes it anyway and writes a `version.publish_forced` audit record.',
  })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 422, {
    status: 409,
    code: 'version_archived',
    description:
      'The version is archived (`version_archived`), or the agent requires a passing evaluation and this revision has none ' +
      '(`evaluation_required`; `?force=true` publishes anyway)',
    message: 'Version 2 is archived; create or pick another version to publish',
  })
  publish(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Query() { force }: ForceQueryDto,
  ): Promise<VersionResponseDto> {
    return this.versions.publish(who, agentId, versionId, force ?? false);
  }

  @Post('agents/:agentId/versions/:versionId/archive')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Archive a version that is not live',
    description:
      '409 `version_is_live` for the live version: publish another one first. 409 `version_in_traffic_split` for an arm of ' +
      "the agent's traffic split: change or end the split first.",
  })
  @ApiOkResponse({ type: VersionResponseDto })
  @ApiErrors(404, 422, { status: 409, code: 'version_is_live', message: 'Version 3 is live; publish another version before archiving it' })
  archive(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<VersionResponseDto> {
    return this.versions.archive(who, agentId, versionId);
  }

  @Idempotent()
  @Post('agents/:agentId/versions/:versionId/push')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a bundle and commit a new revision vN.R',
    description:
      'An identical bundle commits nothing and returns the current revision. An invalid bundle is 422 with details[].field into the bundle; an archived version is 409 `version_archived`.',
  })
  @ApiExampleBody(PushBundleDto, {
    bundle: {
      summary: 'A small bundle: greeting, suggestions, persona',
      value: {
        bundle: {
          schema_version: 1,
          name: 'Store assistant',
          welcome_message: 'Hi! What are you shopping for today?',
          welcome_suggestions: ['Running shoes under $100', 'Track my order'],
          persona: 'Friendly and brief.',
          model: { provider: 'builtin' },
        },
        message: 'New greeting',
      },
    },
  })
  @ApiOkResponse({ type: PushResponseDto })
  @ApiErrors(404, 413, 415, 422, { status: 409, code: 'version_archived', message: 'Version 2 is archived and takes no new revisions' })
  push(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Body() dto: PushBundleDto,
  ): Promise<PushResponseDto> {
    return this.versions.push(who, agentId, versionId, dto);
  }

  @Get('agents/:agentId/versions/:versionId/pull')
  @ApiOperation({
    summary: "Download the version's bundle",
    description: 'The current revision, or the revision tagged `version_tag`. Push it back after editing to commit a new revision.',
  })
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
