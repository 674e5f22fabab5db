import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { EmbedOnPublishListener } from './embed-on-publish.listener.js';
import { KnowledgeEmbeddingsModule } from '../runtime/embeddings/knowledge-embeddings.module.js';
import { KnowledgeController } from './knowledge.controller.js';
import { KnowledgeService } from './knowledge.service.js';

/** Knowledge as documents (upload, list, remove: revisions of the version) and embedding at publish. */
@Module({
  imports: [AuthModule, VersionsModule, RuntimeModule, KnowledgeEmbeddingsModule],
  controllers: [KnowledgeController],
  providers: [KnowledgeService, EmbedOnPublishListener],
})
export class KnowledgeModule {}
