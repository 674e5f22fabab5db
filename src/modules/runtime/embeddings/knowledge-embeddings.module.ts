import { Module } from '@nestjs/common';
import { PassageEmbeddingsRepository } from './passage-embeddings.repository.js';
import { PassageEmbeddingsService } from './passage-embeddings.service.js';

/** Passage vectors (the passage_embeddings table) for the runtime's dense retrieval; imported by RuntimeModule. */
@Module({
  providers: [PassageEmbeddingsRepository, PassageEmbeddingsService],
  exports: [PassageEmbeddingsService],
})
export class KnowledgeEmbeddingsModule {}
