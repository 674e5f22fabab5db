import { Module } from '@nestjs/common';
import { AgentSecretsStoreModule } from '../agent-secrets/agent-secrets-store.module.js';
import { KnowledgeEmbeddingsModule } from './embeddings/knowledge-embeddings.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { HttpToolsService } from './http-tools/http-tools.service.js';
import { RuntimeService } from './runtime.service.js';

/** The agent engines (v1 decisioning, v2 grounded), the model providers, the v1 engine's HTTP tools, MCP tools; no routes. */
@Module({
  imports: [KnowledgeEmbeddingsModule, McpModule, AgentSecretsStoreModule],
  providers: [RuntimeService, HttpToolsService],
  exports: [RuntimeService],
})
export class RuntimeModule {}
