import { Module } from '@nestjs/common';
import { AgentSecretsStoreModule } from '../../agent-secrets/agent-secrets-store.module.js';
import { McpPinsRepository } from './mcp-pins.repository.js';
import { McpService } from './mcp.service.js';

/**
 * The MCP client and the pinned tools (`mcp_tool_pins`): versions pins at push through it, the agent loop calls
 * through it. On its own so that versions need not import the whole runtime.
 */
@Module({
  imports: [AgentSecretsStoreModule],
  providers: [McpService, McpPinsRepository],
  exports: [McpService],
})
export class McpModule {}
