import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { AgentsService } from './agents.service.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { ToolSigningSecretDto } from './dto/tool-signing-secret.dto.js';

@ManagementController('Agents')
export class ToolSigningController {
  constructor(private readonly agents: AgentsService) {}

  @Get('agents/:agentId/tool-signing-secret')
  @ApiOperation({
    summary: "Get the agent's HTTP tool signing secret",
    description:
      'Every call an HTTP tool of this agent makes carries `webhook-id`, `webhook-timestamp` and `webhook-signature` (Standard Webhooks); verify them with this secret to know the call came from this service (docs/http-tools.md).',
  })
  @ApiOkResponse({ type: ToolSigningSecretDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<ToolSigningSecretDto> {
    return this.agents.toolSigningSecret(who, agentId);
  }
}
