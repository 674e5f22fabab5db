import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { SqlParams } from '../../database/sql-params.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { EventBus } from '../../common/bus/event-bus.js';
import type { ThreadListFilter } from './thread-list-filter.js';
import { ConversationsRepository } from './conversations.repository.js';
import type {
  ChannelThread,
  DeletedThreads,
  ExternalThread,
  MessageRow,
  NewThread,
  RecordedTurn,
  RecordedTurnRow,
  AgentMessageRow,
  ThreadItemRow,
  ThreadRow,
  ThreadSelection,
  ThreadState,
  TraceRow,
  TurnRecord,
  UsagePlan,
  UsageSums,
} from './conversations.types.js';
import { rareFacetDriven, threadFilterConditions, type FacetFrequency } from './thread-filters.js';

/** How long the facet frequencies read from the planner statistics are reused. */
const FACET_STATS_TTL_MS = 60_000;

/**
 * The conversation store: the one owner of threads and their interactions (turns). Messaging records turns
 * through it; threads, traces, usage, events and channels read and create conversations only through it.
 */
@Injectable()
export class ConversationsService {
  private facetStats: { at: number; shares: Partial<Record<'tools' | 'rules', Map<string, number>>> } | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly store: ConversationsRepository,
    private readonly bus: EventBus,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The agent's thread with its recent history (the engine's context), or undefined. */
  threadState(organizationId: string, agentId: string, threadId: string): Promise<ThreadState | undefined> {
    return this.store.threadState(organizationId, agentId, threadId);
  }

  /** Records one turn atomically; `TurnAlreadyRecordedError` when its event already has one. */
  recordTurn(turn: TurnRecord): Promise<void> {
    // With a subscriber (a webhook), its work joins the turn's transaction; without, the turn is one statement.
    if (!this.bus.wants('turn.recorded', turn)) return this.store.recordTurn(turn);
    return this.store.recordTurn(turn, (write) =>
      this.unitOfWork.run(async () => {
        await write();
        await this.bus.publish('turn.recorded', turn);
      }),
    );
  }

  createThread(thread: NewThread): Promise<void> {
    if (!this.bus.wants('thread.opened', thread)) return this.store.createThread(thread);
    return this.unitOfWork.run(async () => {
      await this.store.createThread(thread);
      await this.bus.publish('thread.opened', thread);
    });
  }

  /** The turn an event wrote; with `organizationId`, only that organization's. */
  turnForEvent(eventId: string, organizationId: string | null = null): Promise<RecordedTurn | undefined> {
    return this.store.turnForEvent(eventId, organizationId);
  }

  /** The agent's thread's title and first `limit` turns, each with what was asked and what the reply did (test cases). */
  recordedTurns(
    organizationId: string,
    agentId: string,
    threadId: string,
    limit: number,
  ): Promise<{ title: string; turns: RecordedTurnRow[] } | undefined> {
    return this.store.recordedTurns(organizationId, agentId, threadId, limit);
  }

  /** An agent's reply message with its thread, end user and the version that wrote it (feedback is about it). */
  agentMessage(organizationId: string, agentId: string, messageId: string): Promise<AgentMessageRow | undefined> {
    return this.store.agentMessage(organizationId, agentId, messageId);
  }

  /** The agent's thread the caller names by its own id (events webhook `thread_id`, channel threads), with its channel. */
  threadByExternalId(organizationId: string, agentId: string, externalId: string): Promise<ExternalThread | undefined> {
    return this.store.threadByExternalId(organizationId, agentId, externalId);
  }

  channelThread(
    threadId: string,
    owner?: { organizationId: string; agentId: string; channel: string },
  ): Promise<ChannelThread | undefined> {
    return this.store.channelThread(threadId, owner);
  }

  /** The channel threads an inbound message from `phoneNumber` to `senderNumber` could continue, one per organization. */
  channelConversations(channel: string, senderNumber: string, phoneNumber: string, platformDefault: boolean): Promise<ChannelThread[]> {
    return this.store.channelConversations(channel, senderNumber, phoneNumber, platformDefault);
  }

  /** The organization's threads matching the list filters, one page. */
  async listThreads<T>(
    organizationId: string,
    query: ThreadListFilter & PageQuery,
    request: PageRequest,
    toItem: (row: ThreadItemRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    const frequency = await this.facetFrequency();
    const where = threadFilterConditions(organizationId, query, params, frequency);
    return this.store.listThreads(where, params, query, request, toItem, rareFacetDriven(query, frequency));
  }

  findThread(organizationId: string, threadId: string): Promise<ThreadRow | undefined> {
    return this.store.findThread(organizationId, threadId);
  }

  renameThread(organizationId: string, threadId: string, runtime: 'v1' | 'v2', title: string): Promise<ThreadRow | undefined> {
    return this.store.renameThread(organizationId, threadId, runtime, title);
  }

  transcript<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: MessageRow) => T): Promise<Page<T>> {
    return this.store.messages(threadId, query, request, toItem);
  }

  traces<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: TraceRow) => T): Promise<Page<T>> {
    return this.store.traces(threadId, query, request, toItem);
  }

  trace(organizationId: string, interactionId: string): Promise<TraceRow | undefined> {
    return this.store.trace(organizationId, interactionId);
  }

  usage(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan): Promise<UsageSums> {
    return this.store.usage(scope, id, plan);
  }

  /**
   * Deletes up to `limit` threads of the selection with their interactions (traces inside) and channel messages,
   * in the caller's transaction (or its own): the rows are locked, then deleted; usage answers stay the same
   * (`usage_erased`). Call again until it deletes nothing. Interactions created after `recentSince` come back by id
   * so their stream replay buffers can be dropped.
   */
  deleteThreads(selection: ThreadSelection, limit: number, recentSince: Date): Promise<DeletedThreads> {
    return this.unitOfWork.run(async () => this.store.deleteThreads(await this.store.lockThreads(selection, limit), recentSince));
  }

  usageByVersion(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan): Promise<Array<UsageSums & { version_tag: string }>> {
    return this.store.usageByVersion(scope, id, plan);
  }

  /** Facet shares from the planner statistics, read once a minute: the list filters pick by them which facet an index answers. */
  private async facetFrequency(): Promise<FacetFrequency> {
    if (!this.facetStats || Date.now() - this.facetStats.at > FACET_STATS_TTL_MS) {
      this.refreshing ??= this.loadFacetStats().finally(() => {
        this.refreshing = null;
      });
      if (!this.facetStats) await this.refreshing;
    }
    const shares = this.facetStats?.shares;
    return (column, value) => {
      const known = shares?.[column];
      return known && (known.get(value) ?? 0);
    };
  }

  private async loadFacetStats(): Promise<void> {
    // No statistics is not an error: every share is then unknown and the planner alone picks the plan.
    const shares = await this.store.facetShares().catch(() => ({}));
    this.facetStats = { at: Date.now(), shares };
  }
}
