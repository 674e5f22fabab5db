import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { TurnAlreadyRecordedError } from '../conversations/conversations.errors.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ThreadState, TurnRecord } from '../conversations/conversations.types.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import type { EngineTurn, TurnInput, TurnResult } from '../runtime/runtime.types.js';
import type { MessageDto, SendMessageResponseDto } from './dto/message-response.dto.js';
import { LiveAgentsService, type LiveAgent } from './live-agents.service.js';
import { KeyedQueue } from './thread-queue.js';
import { originEvent, originSurface, type TurnCaller, type TurnRequest, type TurnStreamEvent } from './turn.types.js';

const TITLE_LENGTH = 80;

/** The reply's link and the version's greeting, as recorded and as answered. */
interface Reply {
  url: string;
  welcome: string;
}

/** What admission decided: the thread (null: a new one), the end-user turn to answer, and the agent (arm) that answers. */
interface Admission {
  thread: ThreadState | null;
  request: TurnRequest & { userId: string };
  agent: LiveAgent;
}

/**
 * The one turn pipeline every surface runs (JSON send, SSE, WebSocket, events webhook, channels, rerun):
 *
 * 1. **admit** — an event answered already is not answered again (its turn is written at most once); the thread is
 *    read (turns on one thread run one after the other, in arrival order) and its control decided — today always the
 *    agent's; a thread a human holds (handoff) will record the end-user item here and run no engine; the traffic
 *    split routes the thread to its arm.
 * 2. **context** — the thread's recent items become the engine's history.
 * 3. **engine** — one step of the engine, streamed or not (agent mode makes this a loop of steps, each a tool-step item).
 * 4. **record** — the turn and its items in one statement.
 * 5. **publish** — metrics, and the reply as every surface answers it (streaming surfaces close with it).
 *
 * docs/conversation-core.md describes the stages and the seams.
 */
@Injectable()
export class TurnPipeline {
  private readonly threads = new KeyedQueue();

  constructor(
    private readonly live: LiveAgentsService,
    private readonly runtime: RuntimeService,
    private readonly conversations: ConversationsService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Runs one turn. With `onEvent`, the engine streams and the caller is told the thread first, then deltas and cards;
   * errors thrown before the first event are ordinary request errors. An event whose turn is already recorded throws
   * `TurnAlreadyRecordedError` (before the engine runs, or at the write when another attempt won the race).
   */
  async run(caller: TurnCaller, request: TurnRequest, onEvent?: (event: TurnStreamEvent) => void): Promise<SendMessageResponseDto> {
    // A later attempt of an event may find its turn written (an earlier attempt died before completing the event).
    const event = originEvent(request.origin);
    if (event?.retried && (await this.conversations.turnForEvent(event.eventId))) throw new TurnAlreadyRecordedError(event.eventId);
    const live = await this.live.get(caller.organizationId, caller.agentId);
    // Begun with the live version first: a bad runtime pin is refused before any thread is read.
    const liveEngine = this.runtime.begin(live.prepared, request.runtimeVersion);
    const turn = async (threadId: string | null) => {
      const admission = await this.admit(caller, request, threadId);
      const engine = admission.agent === live ? liveEngine : this.runtime.begin(admission.agent.prepared, request.runtimeVersion);
      return this.answer(admission, engine, onEvent);
    };
    if (!request.threadId) return turn(null);
    const threadId = request.threadId.toLowerCase();
    return this.threads.run(threadId, () => turn(threadId));
  }

  /** Admit: the thread (read in its queue), the end-user turn to answer, the arm that answers. */
  private async admit(caller: TurnCaller, request: TurnRequest, threadId: string | null): Promise<Admission> {
    if (threadId === null) {
      if (!request.userId) throw new Error('A turn on a new thread needs its end user');
      const placement = { userId: request.userId, versionId: null, revisionId: null };
      const agent = await this.live.route(caller.organizationId, caller.agentId, placement, 'already_counted');
      return { thread: null, request: { ...request, userId: request.userId }, agent };
    }
    const thread = await this.conversations.threadState(caller.organizationId, caller.agentId, threadId);
    if (!thread) throw new NotFoundError('Thread');
    let turnRequest: Admission['request'];
    if (request.origin.kind === 'rerun') {
      // A rerun answers the thread's last end-user turn again.
      if (!thread.last) throw new NotFoundError('Thread');
      const { text, imageUrl, agentVariables } = thread.last;
      turnRequest = { ...request, text: text ?? undefined, imageUrl: imageUrl ?? undefined, agentVariables, userId: thread.userId };
    } else {
      turnRequest = { ...request, userId: request.userId ?? thread.userId };
    }
    // Thread control: the agent holds every thread today. Handoff adds the human-held case here: record the end-user
    // item, run no engine, answer with the thread's control.
    const agent = await this.live.route(caller.organizationId, caller.agentId, thread, 'already_counted');
    return { thread, request: turnRequest, agent };
  }

  /** Context, engine, record, publish. */
  private async answer(
    { thread, request, agent }: Admission,
    engine: EngineTurn,
    onEvent?: (event: TurnStreamEvent) => void,
  ): Promise<SendMessageResponseDto> {
    const threadId = thread?.id ?? newId();
    const interactionId = newId();
    const surface = originSurface(request.origin);
    const input = this.context(thread, request, agent, surface);
    const timer = this.metrics.turnStarted(surface, agent.runtime, agent.prepared.provider);
    let result: TurnResult;
    if (onEvent) {
      onEvent({ type: 'thread', thread_id: threadId, interaction_id: interactionId, runtime: agent.runtime });
      result = await this.streamStep(engine, input, onEvent, { thread_id: threadId, interaction_id: interactionId }).catch(timer.failed);
    } else {
      result = await engine.run(input).catch(timer.failed);
    }
    const reply = { url: replyUrl(result), welcome: engine.welcomeMessage };
    const record = this.record(threadId, interactionId, thread, request, agent, result, reply);
    await this.conversations.recordTurn(record).catch(timer.failed);
    timer.completed(result.usage);
    return this.publish(record, result, reply, request.includeTrace ?? false);
  }

  /** Context: the end-user turn with the thread's recent items as history. */
  private context(thread: ThreadState | null, request: Admission['request'], agent: LiveAgent, surface: TurnInput['surface']): TurnInput {
    return {
      text: request.text,
      imageUrl: request.imageUrl,
      agentVariables: request.agentVariables ?? {},
      history: thread?.history ?? [],
      surface,
      agentId: agent.agentId,
      revisionId: agent.revisionId,
    };
  }

  /** Engine, streamed: deltas and cards; in agent mode first each tool call's `step` events, with the turn's ids. */
  private async streamStep(
    engine: EngineTurn,
    input: TurnInput,
    onEvent: (event: TurnStreamEvent) => void,
    ids: { thread_id: string; interaction_id: string },
  ): Promise<TurnResult> {
    for await (const event of engine.stream(input)) {
      if (event.type === 'result') return event.result;
      onEvent(event.type === 'step' ? { ...ids, ...event } : event);
    }
    throw new Error('The engine stream ended without a result');
  }

  /** Record: the turn with its end-user message and reply, its trace and usage, and the thread's facets. */
  private record(
    threadId: string,
    interactionId: string,
    thread: ThreadState | null,
    request: Admission['request'],
    agent: LiveAgent,
    result: TurnResult,
    reply: Reply,
  ): TurnRecord {
    const { origin } = request;
    const externalThreadId = origin.kind === 'event' || origin.kind === 'channel' ? origin.externalThreadId : null;
    return {
      interactionId,
      threadId,
      source: origin.kind === 'api' ? 'api' : origin.kind === 'rerun' ? 'rerun' : 'event',
      newThread: thread ? null : { title: threadTitle(request), externalId: externalThreadId },
      organizationId: agent.organizationId,
      projectId: agent.projectId,
      agentId: agent.agentId,
      userId: request.userId,
      userMessageId: newId(),
      userText: request.text ?? null,
      imageUrl: request.imageUrl ?? null,
      agentVariables: request.agentVariables ?? {},
      replyMessageId: newId(),
      replyText: result.text,
      reply: {
        cards: result.cards,
        followup_suggestions: result.followupSuggestions,
        url: reply.url,
        welcome_message: reply.welcome,
      },
      trace: result.trace,
      runtime: result.runtime,
      runtimeBuild: result.runtimeBuild,
      versionId: agent.versionId,
      revisionId: agent.revisionId,
      versionTag: agent.versionTag,
      usage: result.usage,
      facets: result.facets,
      createdAt: new Date(),
      eventId: originEvent(origin)?.eventId ?? null,
    };
  }

  /** Publish: the reply as every surface answers it. */
  private publish(record: TurnRecord, result: TurnResult, reply: Reply, includeTrace: boolean): SendMessageResponseDto {
    const message: MessageDto = {
      id: record.replyMessageId,
      created_at: record.createdAt.toISOString(),
      text: result.text,
      sender: { id: record.agentId, type: 'agent' },
      receiver: { id: record.userId, type: 'user' },
      cards: result.cards,
      welcome_message: reply.welcome,
      followup_suggestions: result.followupSuggestions,
      url: reply.url,
      input_tokens: result.usage.input_tokens,
      output_tokens: result.usage.output_tokens,
    };
    if (includeTrace) message.trace_info = result.trace;
    return { thread_id: record.threadId, interaction_id: record.interactionId, message };
  }
}

function threadTitle(request: TurnRequest): string {
  const text = request.text?.replace(/\s+/g, ' ').trim();
  if (text) return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
  return request.imageUrl ? 'Image' : 'Conversation';
}

/** The reply's most relevant link: the top card's `url` field, else the first citation's. */
function replyUrl(result: TurnResult): string {
  const cardUrl = result.cards[0]?.json_data.entity.url;
  if (typeof cardUrl === 'string') return cardUrl;
  return result.trace.runtime === 'v2' ? (result.trace.citations_used[0]?.url ?? '') : '';
}
