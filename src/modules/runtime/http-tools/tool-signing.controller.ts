import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { AgentIdParams } from '../../agents/dto/agent.dto.js';
import { CurrentPrincipal } from '../../auth/decorators/auth.decorator.js';
import { ManagementController } from '../../auth/decorators/surface.decorators.js';
import type { Principal } from '../../auth/principal.js';
import { HttpToolsService } from './http-tools.service.js';
import { ToolSigningSecretDto } from './tool-signing-secret.dto.js';

@ManagementController('Agents')
export class ToolSigningController {
  constructor(private readonly httpTools: HttpToolsService) {}

  @Get('agents/:agentId/tool-signing-secret')
  @ApiOperation({
    summary: "Get the agent's HTTP tool signing secret",
    description:
      'Every call an HTTP tool of this agent makes carries `webhook-id`, `webhook-timestamp` and `webhook-signature` (Standard Webhooks); verify them with this secret to know the call came from this service (docs/http-tools.md).',
  })
  @ApiOkResponse({ type: ToolSigningSecretDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<ToolSigningSecretDto> {
    return this.httpTools.signingSecretFor(who, agentId);
  }
}
