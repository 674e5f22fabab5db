import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { AppConfig } from '../../config/app-config.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { ChangeActor } from '../../common/bus/event-map.js';
import type { Principal } from '../auth/principal.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ThreadSelection } from '../conversations/conversations.types.js';
import { EventsService } from '../events/events.service.js';
import { ProjectsService } from '../projects/projects.service.js';
import type { UserErasureResponseDto } from './dto/erasure.dto.js';

const DAY_MS = 86_400_000;
/** Replay buffers outlive their turn by STREAM_REPLAY_TTL_SECONDS; this margin covers the turn itself. */
const REPLAY_MARGIN_MS = 3_600_000;

/** What a deletion removed: counts, never contents. */
export interface DeletionCounts {
  threads: number;
  interactions: number;
  events: number;
}

/** What one retention run did. */
export interface RetentionRunSummary extends DeletionCounts {
  projects: number;
  batches: number;
  /** True when the run stopped at its time budget with expired threads left (the next run continues). */
  stoppedEarly: boolean;
}

type DeletionReason = 'erasure' | 'retention';

/** The system actor of retention runs in audit records. */
export const RETENTION_ACTOR_NAME = 'thread-retention';

/** Who asked for a batch and what its audit record names. */
interface BatchAudit {
  actor: ChangeActor;
  resourceType: 'thread' | 'end_user' | 'project';
  resourceId: string;
  /** Extra summary fields (never contents). */
  summary?: Record<string, unknown>;
}

/**
 * Deletes threads with everything tied to them: interactions (traces inside), channel messages (both cascade from
 * the thread), the events that ran on them, and their stream replay buffers (after the commit, `threads.deleted`).
 * Usage answers stay the same (`usage_erased`, see ConversationsService.deleteThreads). Work goes in batches of
 * RETENTION_BATCH_SIZE threads, each one short transaction, so no lock is held for long and a send into another
 * thread never waits (docs/governance.md).
 */
@Injectable()
export class ThreadDeletionService {
  private readonly logger = new Logger('ThreadRetention');

  constructor(
    private readonly conversations: ConversationsService,
    private readonly events: EventsService,
    private readonly projects: ProjectsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** End-user erasure of one thread of the caller's organization, now; another organization's thread is 404. */
  async eraseThread(who: Principal, threadId: string): Promise<void> {
    const selection: ThreadSelection = { kind: 'thread', organizationId: who.organizationId, threadId };
    const counts = await this.batch(selection, 'erasure', { actor: who, resourceType: 'thread', resourceId: threadId.toLowerCase() });
    if (counts.threads === 0) throw new NotFoundError('Thread');
  }

  /** End-user erasure of every thread of `userId` in the caller's organization, batch by batch until none is left. */
  async eraseUser(who: Principal, userId: string): Promise<UserErasureResponseDto> {
    const selection: ThreadSelection = { kind: 'user', organizationId: who.organizationId, userId };
    const total: DeletionCounts = { threads: 0, interactions: 0, events: 0 };
    // The end user is named by a digest in audit records: the log proves the erasure without keeping the identifier.
    const audit: BatchAudit = { actor: who, resourceType: 'end_user', resourceId: userDigest(userId) };
    for (;;) {
      const counts = await this.batch(selection, 'erasure', audit);
      add(total, counts);
      if (counts.threads === 0) break;
    }
    return {
      user_id: userId,
      deleted_threads: total.threads,
      deleted_interactions: total.interactions,
      deleted_events: total.events,
    };
  }

  /**
   * One retention pass: for every project with `thread_retention_days`, deletes its threads whose last activity is
   * older, batch by batch. With `budgetMs`, stops starting new batches once the budget is spent (the next run goes
   * on), so consecutive runs of the repeatable job do not overlap.
   */
  async runRetention(options: { budgetMs?: number; now?: Date } = {}): Promise<RetentionRunSummary> {
    const started = Date.now();
    const now = options.now ?? new Date();
    const summary: RetentionRunSummary = { projects: 0, batches: 0, threads: 0, interactions: 0, events: 0, stoppedEarly: false };
    for (const project of await this.projects.withRetention()) {
      summary.projects += 1;
      const before = new Date(now.getTime() - project.threadRetentionDays * DAY_MS);
      const selection: ThreadSelection = { kind: 'expired', projectId: project.id, before };
      const audit: BatchAudit = {
        actor: { kind: 'system', organizationId: project.organizationId, name: RETENTION_ACTOR_NAME },
        resourceType: 'project',
        resourceId: project.id,
        summary: { thread_retention_days: project.threadRetentionDays, last_activity_before: before.toISOString() },
      };
      for (;;) {
        if (options.budgetMs !== undefined && Date.now() - started >= options.budgetMs) {
          summary.stoppedEarly = true;
          return this.logged(summary);
        }
        const counts = await this.batch(selection, 'retention', audit);
        if (counts.threads === 0) break;
        summary.batches += 1;
        add(summary, counts);
      }
    }
    return this.logged(summary);
  }

  /**
   * One batch in one transaction: lock and delete up to RETENTION_BATCH_SIZE threads (their interactions and channel
   * messages cascade), delete their events, publish `threads.deleted` (in the transaction, the webhook outbox deletes
   * their deliveries; after the commit, replay buffers go, and the batch waits for that, so an erasure answers once
   * the buffers are gone too) and, when something was deleted, `thread.delete` (the audit record: counts, not contents).
   */
  private async batch(selection: ThreadSelection, reason: DeletionReason, audit: BatchAudit): Promise<DeletionCounts> {
    const recentSince = new Date(Date.now() - this.config.streaming.replayTtlSeconds * 1000 - REPLAY_MARGIN_MS);
    const deleted = await this.unitOfWork.run(async () => {
      const gone = await this.conversations.deleteThreads(selection, this.config.retention.batchSize, recentSince);
      const threadIds = gone.threads.map((t) => t.id);
      const events = await this.events.deleteForThreads(threadIds);
      if (threadIds.length === 0) return { ...gone, threadIds, events };
      const dependents: Record<string, number> = {};
      // A batch of `expired` spans one project; an erasure one organization: one event per organization either way.
      for (const organizationId of new Set(gone.threads.map((t) => t.organizationId))) {
        const ids = gone.threads.filter((t) => t.organizationId === organizationId).map((t) => t.id);
        await this.bus.publish('threads.deleted', {
          organizationId,
          threadIds: ids,
          interactionIds: gone.recentInteractionIds,
          reason,
          dependents,
        });
      }
      await this.bus.publish('thread.delete', {
        actor: audit.actor,
        resourceType: audit.resourceType,
        resourceId: audit.resourceId,
        before: { threads: threadIds.length, interactions: gone.interactionCount, events, ...dependents },
        after: { reason, ...audit.summary },
      });
      return { ...gone, threadIds, events };
    });
    return { threads: deleted.threadIds.length, interactions: deleted.interactionCount, events: deleted.events };
  }

  private logged(summary: RetentionRunSummary): RetentionRunSummary {
    if (summary.threads > 0 || summary.stoppedEarly) this.logger.log({ ...summary }, 'thread retention run');
    return summary;
  }
}

function add(total: DeletionCounts, counts: DeletionCounts): void {
  total.threads += counts.threads;
  total.interactions += counts.interactions;
  total.events += counts.events;
}

/** How audit records name an end user without keeping the identifier itself. */
export const userDigest = (userId: string): string => `sha256:${createHash('sha256').update(userId).digest('hex')}`;
