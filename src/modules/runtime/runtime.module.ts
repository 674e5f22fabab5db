import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { KnowledgeEmbeddingsModule } from '../knowledge/knowledge-embeddings.module.js';
import { HttpToolsService } from './http-tools/http-tools.service.js';
import { ToolSigningController } from './http-tools/tool-signing.controller.js';
import { RuntimeService } from './runtime.service.js';

/** The agent engines (v1 decisioning, v2 grounded), the model providers, and the v1 engine's HTTP tools. */
@Module({
  imports: [KnowledgeEmbeddingsModule, AgentsModule],
  controllers: [ToolSigningController],
  providers: [RuntimeService, HttpToolsService],
  exports: [RuntimeService],
})
export class RuntimeModule {}
