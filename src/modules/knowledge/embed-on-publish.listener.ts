import { Injectable, Logger } from '@nestjs/common';
import type { LiveRevisionChange } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import { VersionsService } from '../versions/versions.service.js';
import { embeddableRevision, PassageEmbeddingsService } from '../runtime/embeddings/passage-embeddings.service.js';

/**
 * Publish (and the rename re-publish) of a revision whose bundle names an embeddings model starts embedding its
 * passages in the background, in the process that published, so the first turns find the vectors ready. A failure
 * is logged; turns then rank lexically and retry the embedding themselves (docs/knowledge.md).
 */
@Injectable()
export class EmbedOnPublishListener {
  private readonly logger = new Logger('EmbedOnPublish');

  constructor(
    private readonly versions: VersionsService,
    private readonly runtime: RuntimeService,
    private readonly embeddings: PassageEmbeddingsService,
  ) {}

  @OnBusEvent('version.published')
  onPublished(change: LiveRevisionChange): void {
    if (change.revisionId) void this.embed(change.organizationId, change.agentId, change.revisionId);
  }

  private async embed(organizationId: string, agentId: string, revisionId: string): Promise<void> {
    try {
      const content = await this.versions.revisionContent(organizationId, agentId, revisionId);
      if (!content?.bundle.embeddings || content.runtime !== 'v2') return;
      const revision = embeddableRevision(this.runtime.prepare(content));
      if (revision) this.embeddings.prepareInBackground(revision);
    } catch (error) {
      this.logger.warn(`Revision ${revisionId}: could not start embedding (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
