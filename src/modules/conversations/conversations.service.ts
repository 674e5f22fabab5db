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
  ControlChanged,
  ControlWrite,
  DeletedThreads,
  InboxRow,
  MessageWrite,
  RecordedTurnWrite,
  ThreadControlRow,
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

  /**
   * Records one turn atomically; `TurnAlreadyRecordedError` when its event already has one. A turn that asks for a
   * human moves the thread to `pending` in the same statement (when the agent still held it) and announces the change.
   */
  recordTurn(turn: TurnRecord): Promise<RecordedTurnWrite> {
    // With a subscriber (a webhook), its work joins the turn's transaction; without, the turn is one statement.
    const reported = this.bus.wants('turn.recorded', turn);
    if (!reported && !turn.handoff) return this.store.recordTurn(turn);
    return this.store.recordTurn(turn, (write) =>
      this.unitOfWork.run(async () => {
        const written = await write();
        if (reported) await this.bus.publish('turn.recorded', turn);
        if (written.handedOff) {
          await this.bus.publish('thread.control_changed', {
            organizationId: turn.organizationId,
            projectId: turn.projectId,
            agentId: turn.agentId,
            threadId: turn.threadId,
            userId: turn.userId,
            channel: turn.channel ?? null,
            control: 'pending',
            assignee: null,
            change: 'requested',
            previous: 'agent',
            reason: turn.handoff!.reason,
            requestedAt: turn.createdAt,
            acceptedAt: null,
            releasedAt: null,
            note: { id: turn.handoff!.noteId, seq: written.handedOff.noteSeq, text: turn.handoff!.message },
            at: turn.createdAt,
          });
        }
      }),
    );
  }

  /**
   * Changes a thread's control by compare-and-set, with its note, and announces it in the same transaction (webhooks,
   * audit of the operator's `audit` change). Undefined when the thread is not the organization's or not in a state the
   * change starts from (the caller tells these apart with `findThread`).
   */
  changeControl(write: ControlWrite, audit?: (changed: ControlChanged) => Promise<void>): Promise<ControlChanged | undefined> {
    return this.unitOfWork.run(async () => {
      const changed = await this.store.changeControl(write);
      if (!changed) return undefined;
      const { thread, previous } = changed;
      await this.bus.publish('thread.control_changed', {
        ...handoffThread(thread),
        change: write.change,
        previous,
        reason: thread.handoff_reason,
        requestedAt: thread.handoff_requested_at,
        acceptedAt: thread.handoff_accepted_at,
        releasedAt: thread.handoff_released_at,
        note: { id: write.noteId, seq: thread.item_seq, text: write.message },
        at: write.at,
      });
      await audit?.(changed);
      return changed;
    });
  }

  /**
   * Writes a message outside a turn by compare-and-set on the thread's control (an operator's while they hold the
   * thread, an end user's while it is not under agent control) and announces it in the same transaction. Undefined
   * when the control does not allow it (or the thread is not there).
   */
  appendMessage(write: MessageWrite, audit?: (thread: ThreadControlRow) => Promise<void>): Promise<ThreadControlRow | undefined> {
    return this.unitOfWork.run(async () => {
      const thread = await this.store.appendMessage(write);
      if (!thread) return undefined;
      await this.bus.publish('thread.message_created', {
        ...handoffThread(thread),
        message: {
          id: write.id,
          seq: thread.item_seq,
          kind: write.kind,
          authorId: write.authorId,
          text: write.text,
          imageUrl: write.imageUrl,
          interactionId: write.turnId,
          createdAt: write.at,
        },
      });
      await audit?.(thread);
      return thread;
    });
  }

  /** Threads waiting for or held by an operator, oldest request first. */
  inbox<T>(
    organizationId: string,
    filter: { control?: 'pending' | 'human'; assignee?: string },
    query: PageQuery,
    request: PageRequest,
    toItem: (row: InboxRow) => T,
  ): Promise<Page<T>> {
    return this.store.inbox(organizationId, filter, query, request, toItem);
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

/** The thread part of a handoff event. */
function handoffThread(thread: ThreadControlRow) {
  return {
    organizationId: thread.organization_id,
    projectId: thread.project_id,
    agentId: thread.agent_id,
    threadId: thread.id,
    userId: thread.user_id,
    channel: thread.channel,
    control: thread.control,
    assignee: thread.assignee_id,
  };
}
