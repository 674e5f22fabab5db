import { Module } from '@nestjs/common';
import { KnowledgeEmbeddingsModule } from '../knowledge/knowledge-embeddings.module.js';
import { RuntimeService } from './runtime.service.js';

/** The agent engines (v1 decisioning, v2 grounded) and the model providers. */
@Module({
  imports: [KnowledgeEmbeddingsModule],
  providers: [RuntimeService],
  exports: [RuntimeService],
})
export class RuntimeModule {}
