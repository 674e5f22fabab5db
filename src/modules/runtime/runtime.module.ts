import { Module } from '@nestjs/common';
import { KnowledgeEmbeddingsModule } from './embeddings/knowledge-embeddings.module.js';
import { HttpToolsService } from './http-tools/http-tools.service.js';
import { RuntimeService } from './runtime.service.js';

/** The agent engines (v1 decisioning, v2 grounded), the model providers, and the v1 engine's HTTP tools; no routes. */
@Module({
  imports: [KnowledgeEmbeddingsModule],
  providers: [RuntimeService, HttpToolsService],
  exports: [RuntimeService],
})
export class RuntimeModule {}
