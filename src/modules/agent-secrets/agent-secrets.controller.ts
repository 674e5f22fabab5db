import { Body, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { AgentSecretsService } from './agent-secrets.service.js';
import { AgentSecretParams, AgentSecretResponseDto, ListAgentSecretsQueryDto, PutAgentSecretDto } from './dto/agent-secret.dto.js';

@ManagementController('Agent secrets')
export class AgentSecretsController {
  constructor(private readonly secrets: AgentSecretsService) {}

  @Put('agents/:agentId/secrets/:name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set an agent secret',
    description:
      "Creates the secret or replaces its value. Header values of the agent's MCP servers and HTTP tools name it as `{{secret:NAME}}`; it is filled in when a call is made. Write-only: encrypted at rest, never shown again, never in pulls, traces or logs.",
  })
  @ApiExampleBody(PutAgentSecretDto, { token: { summary: 'An API token of your MCP server', value: { value: 'sk_live_51H…' } } })
  @ApiNoContentResponse({ description: 'Stored' })
  @ApiErrors(404, 413, 415, 422)
  put(@CurrentPrincipal() who: Principal, @Param() { agentId, name }: AgentSecretParams, @Body() dto: PutAgentSecretDto): Promise<void> {
    return this.secrets.put(who, agentId, name, dto.value);
  }

  @Get('agents/:agentId/secrets')
  @ApiOperation({ summary: "List the agent's secrets", description: 'Names and dates only; a value is never shown again.' })
  @ApiPageResponse(AgentSecretResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListAgentSecretsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<AgentSecretResponseDto>> {
    return this.secrets.list(who, agentId, query, page);
  }

  @Delete('agents/:agentId/secrets/:name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an agent secret',
    description: 'Calls whose headers name it fail from now on (with a readable error) until it is set again or a push stops naming it.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Secret not found' }, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { agentId, name }: AgentSecretParams): Promise<void> {
    return this.secrets.delete(who, agentId, name);
  }
}
