import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';

export type LiveRevisionChangeReason = 'publish' | 'rename' | 'agent_deleted';

/** The agent's live pointer after the change (nulls when the agent no longer has a live version). */
export interface LiveRevisionChange {
  organizationId: string;
  agentId: string;
  versionId: string | null;
  revisionId: string | null;
  versionTag: string | null;
  reason: LiveRevisionChangeReason;
}

/**
 * In-process notifications of live-pointer changes (publish, rename re-publish, agent delete — also of each agent
 * of a deleted project), emitted after the change is committed. Subscribers (e.g. messaging's live-bundle cache) invalidate what they hold for the agent.
 * Other processes see the change through their own cache expiry (BUNDLE_CACHE_TTL_SECONDS at most); a deleted
 * agent's credentials are refused there at once anyway (CredentialChanges).
 */
@Injectable()
export class LiveRevisionNotifier implements OnModuleDestroy {
  private readonly subject = new Subject<LiveRevisionChange>();

  /** Every change, in commit order within this process. */
  readonly changes: Observable<LiveRevisionChange> = this.subject.asObservable();

  notify(change: LiveRevisionChange): void {
    this.subject.next(change);
  }

  /** Convenience for callers that only need the agent id; returns the unsubscribe function. */
  onChange(listener: (change: LiveRevisionChange) => void): () => void {
    const subscription = this.changes.subscribe(listener);
    return () => subscription.unsubscribe();
  }

  onModuleDestroy(): void {
    this.subject.complete();
  }
}
