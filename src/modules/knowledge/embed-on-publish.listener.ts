import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RuntimeService } from '../runtime/runtime.service.js';
import { LiveRevisionNotifier } from '../versions/live-revision.notifier.js';
import { VersionsService } from '../versions/versions.service.js';
import { embeddableRevision, PassageEmbeddingsService } from './passage-embeddings.service.js';

/**
 * Publish (and the rename re-publish) of a revision whose bundle names an embeddings model starts embedding its
 * passages in the background, in the process that published, so the first turns find the vectors ready. A failure
 * is logged; turns then rank lexically and retry the embedding themselves (docs/knowledge.md).
 */
@Injectable()
export class EmbedOnPublishListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EmbedOnPublish');
  private unsubscribe?: () => void;

  constructor(
    private readonly notifier: LiveRevisionNotifier,
    private readonly versions: VersionsService,
    private readonly runtime: RuntimeService,
    private readonly embeddings: PassageEmbeddingsService,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.notifier.onChange((change) => {
      if (change.revisionId && change.reason !== 'agent_deleted') void this.embed(change.organizationId, change.agentId, change.revisionId);
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
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
