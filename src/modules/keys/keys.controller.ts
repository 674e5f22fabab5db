import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
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
import {
  AgentApiKeyResponseDto,
  AgentKeyParams,
  CreatedAgentApiKeyResponseDto,
  CreatedPublishableKeyResponseDto,
  CreatePublishableKeyDto,
  ListKeysQueryDto,
  PublishableKeyResponseDto,
} from './dto/key.dto.js';
import { KeysService } from './keys.service.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ManagementController('Agent keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Idempotent()
  @Post('agents/:agentId/publishable-keys')
  @ApiOperation({
    summary: 'Create a publishable key',
    description:
      'For client code (browser, app): exchange it at POST /management/v1/auth/token for an access token. The key is shown only in this response.',
  })
  @ApiExampleBody(CreatePublishableKeyDto, {
    any: { summary: 'Usable from anywhere', value: {} },
    site: { summary: 'Only from one web origin', value: { allowed_origins: ['https://shop.example.com'] } },
  })
  @ApiCreatedResponse({ type: CreatedPublishableKeyResponseDto })
  @ApiErrors(404, 413, 415, 422)
  createPublishableKey(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Body() dto: CreatePublishableKeyDto,
  ): Promise<CreatedPublishableKeyResponseDto> {
    return this.keys.createPublishableKey(who, agentId, dto ?? {});
  }

  @Get('agents/:agentId/publishable-keys')
  @ApiOperation({ summary: "List the agent's publishable keys", description: 'Active keys only, with their prefix; never the key itself.' })
  @ApiPageResponse(PublishableKeyResponseDto)
  @ApiErrors(404, 422)
  listPublishableKeys(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListKeysQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<PublishableKeyResponseDto>> {
    return this.keys.listPublishableKeys(who, agentId, query, page);
  }

  @Delete('agents/:agentId/publishable-keys/:keyId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a publishable key',
    description: 'No more exchanges, and the access tokens it issued are refused at once.',
  })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(404, 422)
  revokePublishableKey(@CurrentPrincipal() who: Principal, @Param() { agentId, keyId }: AgentKeyParams): Promise<void> {
    return this.keys.revokePublishableKey(who, agentId, keyId);
  }

  @Idempotent()
  @Post('agents/:agentId/api-keys')
  @ApiOperation({
    summary: 'Create an agent API key',
    description: 'For your servers: send it as `x-agent-api-key` to the events webhook. The key is shown only in this response; no body.',
  })
  @ApiCreatedResponse({ type: CreatedAgentApiKeyResponseDto })
  @ApiErrors(404, 422)
  createApiKey(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<CreatedAgentApiKeyResponseDto> {
    return this.keys.createApiKey(who, agentId);
  }

  @Get('agents/:agentId/api-keys')
  @ApiOperation({ summary: "List the agent's API keys", description: 'Active keys only, with their prefix; never the key itself.' })
  @ApiPageResponse(AgentApiKeyResponseDto)
  @ApiErrors(404, 422)
  listApiKeys(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListKeysQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<AgentApiKeyResponseDto>> {
    return this.keys.listApiKeys(who, agentId, query, page);
  }

  @Delete('agents/:agentId/api-keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an agent API key', description: 'The key is refused at once, on every instance.' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(404, 422)
  revokeApiKey(@CurrentPrincipal() who: Principal, @Param() { agentId, keyId }: AgentKeyParams): Promise<void> {
    return this.keys.revokeApiKey(who, agentId, keyId);
  }
}
