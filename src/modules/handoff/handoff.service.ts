import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import type { Principal } from '../auth/principal.js';
import { DEFAULT_HANDOFF_MESSAGE, DEFAULT_HANDOFF_TIMEOUT_MESSAGE, handoffSettings } from '../bundles/handoff-defaults.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ControlChanged, ControlWrite, ThreadRow } from '../conversations/conversations.types.js';
import { LiveAgentsService } from '../messaging/live-agents.service.js';
import { HANDOFF_CONFLICT } from '../messaging/messaging.errors.js';
import type { TurnCaller } from '../messaging/turn.types.js';
import {
  toInboxItem,
  toThreadControl,
  type InboxItemDto,
  type InboxQueryDto,
  type OperatorMessageResponseDto,
  type ThreadControlDto,
} from './dto/handoff.dto.js';

/** The agent's live revision does not enable handoff: the end user cannot ask for a human. */
export const HANDOFF_DISABLED = 'handoff_disabled';

/** An operator: an organization user signed in (login session). The routes accept nothing else. */
type Operator = Extract<Principal, { kind: 'session' }>;

const operatorOf = (who: Principal): Operator => {
  if (who.kind !== 'session') throw new Error('Operator routes accept login sessions only');
  return who;
};

/**
 * Human handoff (docs/handoff.md): the end user's request for a human, the operators' takeover, accept, messages and
 * release, the inbox, and the request timeout. Every change is a compare-and-set in the conversation store
 * (ConversationsService.changeControl / appendMessage), announced on the bus in its transaction: webhooks and the
 * audit log record it there; HandoffRelay fans it out to the live surfaces once it has committed.
 */
@Injectable()
export class HandoffService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly live: LiveAgentsService,
    private readonly bus: EventBus,
  ) {}

  /**
   * The end user asks for a human. Needs handoff enabled on the live revision (409 `handoff_disabled`). Asking again
   * while one is awaited or holds the thread changes nothing and answers the current control.
   */
  async request(caller: TurnCaller, threadId: string, reason: string | undefined): Promise<ThreadControlDto> {
    const agent = await this.live.get(caller.organizationId, caller.agentId);
    const thread = await this.agentThread(caller, threadId);
    const settings = handoffSettings(agent.prepared.bundle);
    if (!settings) {
      throw new ConflictError(HANDOFF_DISABLED, "Handoff is not enabled in the agent's live version (bundle `handoff.enabled`)");
    }
    const changed = await this.conversations.changeControl(
      this.write(caller.organizationId, thread.id, 'requested', null, reason ?? 'end_user', settings.message ?? DEFAULT_HANDOFF_MESSAGE),
    );
    return toThreadControl(changed?.thread ?? (await this.agentThread(caller, threadId)));
  }

  /** An operator takes the thread over: straight to `human`, the caller as assignee (from `agent` or `pending`). */
  async takeover(who: Principal, threadId: string, reason: string | undefined): Promise<ThreadControlDto> {
    const operator = operatorOf(who);
    const changed = await this.conversations.changeControl(
      this.write(operator.organizationId, threadId, 'takeover', operator.userId, reason ?? 'operator_takeover', null),
      (c) => this.audit(operator, 'thread.takeover', c),
    );
    if (!changed) throw await this.refusal(operator, threadId, 'take over');
    return toThreadControl(changed.thread);
  }

  /** An operator accepts a waiting thread (`pending` → `human`); one operator wins, the others get 409. */
  async accept(who: Principal, threadId: string): Promise<ThreadControlDto> {
    const operator = operatorOf(who);
    const changed = await this.conversations.changeControl(
      this.write(operator.organizationId, threadId, 'accepted', operator.userId, null, null),
      (c) => this.audit(operator, 'thread.accept', c),
    );
    if (!changed) throw await this.refusal(operator, threadId, 'accept');
    return toThreadControl(changed.thread);
  }

  /** The assignee hands the thread back to the agent (`human` → `agent`). */
  async release(who: Principal, threadId: string): Promise<ThreadControlDto> {
    const operator = operatorOf(who);
    const changed = await this.conversations.changeControl(
      this.write(operator.organizationId, threadId, 'released', operator.userId, null, null),
      (c) => this.audit(operator, 'thread.release', c),
    );
    if (!changed) throw await this.refusal(operator, threadId, 'release');
    return toThreadControl(changed.thread);
  }

  /** The assignee writes to the end user; delivered on every surface (HandoffRelay, channels). */
  async message(who: Principal, threadId: string, text: string): Promise<OperatorMessageResponseDto> {
    const operator = operatorOf(who);
    const id = newId();
    const at = new Date();
    const written = await this.conversations.appendMessage(
      {
        organizationId: operator.organizationId,
        threadId,
        kind: 'operator',
        id,
        turnId: null,
        authorId: operator.userId,
        text,
        imageUrl: null,
        at,
      },
      (thread) =>
        this.bus.publish('thread.operator_message', {
          actor: operator,
          resourceType: 'thread',
          resourceId: thread.id,
          after: { message_id: id, characters: text.length },
        }),
    );
    if (!written) throw await this.refusal(operator, threadId, 'write to');
    return { id, thread_id: written.id, text, author_id: operator.userId, created_at: at.toISOString() };
  }

  async inbox(who: Principal, query: InboxQueryDto, request: PageRequest): Promise<Page<InboxItemDto>> {
    if (query.assignee === 'me' && who.kind !== 'session') {
      throw ValidationError.field('assignee', 'assignee=me names the signed-in operator: use a login session, not the organization key');
    }
    const assignee = query.assignee === 'me' && who.kind === 'session' ? who.userId : undefined;
    return this.conversations.inbox(who.organizationId, { control: query.control, assignee }, query, request, toInboxItem);
  }

  /**
   * A request's timeout (the queue's delayed job). Acts once, and only on the request it was scheduled for while it is
   * still waiting: back to the agent, or (on_timeout `wait`) still pending with the end user told once.
   */
  async timeout(organizationId: string, threadId: string, requestedAt: Date): Promise<boolean> {
    const thread = await this.conversations.findThread(organizationId, threadId);
    if (!thread || thread.control !== 'pending') return false;
    const settings = await this.live
      .get(organizationId, thread.agent_id)
      .then((agent) => handoffSettings(agent.prepared.bundle))
      .catch(() => null);
    const write = this.write(
      organizationId,
      threadId,
      'timed_out',
      null,
      null,
      settings?.timeout_message ?? DEFAULT_HANDOFF_TIMEOUT_MESSAGE,
    );
    const changed = await this.conversations.changeControl({
      ...write,
      since: requestedAt,
      timeoutTo: settings?.on_timeout === 'wait' ? 'pending' : 'agent',
    });
    return changed !== undefined;
  }

  /** The handoff timeout of the agent's live revision, in seconds (null: none). */
  async timeoutSeconds(organizationId: string, agentId: string): Promise<number | null> {
    const agent = await this.live.get(organizationId, agentId).catch(() => null);
    return (agent && handoffSettings(agent.prepared.bundle)?.timeout_s) ?? null;
  }

  private write(
    organizationId: string,
    threadId: string,
    change: ControlWrite['change'],
    userId: string | null,
    reason: string | null,
    message: string | null,
  ): ControlWrite {
    return { organizationId, threadId, change, at: new Date(), userId, reason, noteId: newId(), message };
  }

  /** The token's agent's thread, or 404 (another agent's or organization's thread is not found, never 403). */
  private async agentThread(caller: TurnCaller, threadId: string): Promise<ThreadRow> {
    const thread = await this.conversations.findThread(caller.organizationId, threadId);
    if (!thread || thread.agent_id !== caller.agentId) throw new NotFoundError('Thread');
    return thread;
  }

  /** Why a compare-and-set did not apply: the thread is not the organization's (404), or its control forbids it (409). */
  private async refusal(operator: Operator, threadId: string, action: string): Promise<Error> {
    const thread = await this.conversations.findThread(operator.organizationId, threadId);
    if (!thread) return new NotFoundError('Thread');
    const holder =
      thread.control === 'human'
        ? thread.assignee_id === operator.userId
          ? 'you hold it already'
          : 'another operator holds it'
        : thread.control === 'pending'
          ? 'it is waiting for an operator to accept it'
          : 'the agent holds it';
    return new ConflictError(HANDOFF_CONFLICT, `Cannot ${action} this thread: ${holder}`);
  }

  private audit(
    operator: Operator,
    action: 'thread.takeover' | 'thread.accept' | 'thread.release',
    changed: ControlChanged,
  ): Promise<void> {
    return this.bus.publish(action, {
      actor: operator,
      resourceType: 'thread',
      resourceId: changed.thread.id,
      before: { control: changed.previous },
      after: { control: changed.thread.control, assignee: changed.thread.assignee_id },
    });
  }
}
