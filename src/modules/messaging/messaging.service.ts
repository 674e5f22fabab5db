import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { EngineTurn, TurnEvent, TurnInput, TurnResult, TurnSurface } from '../runtime/runtime.types.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type {
  FollowupSuggestionsResponseDto,
  MessageDto,
  SendMessageResponseDto,
  WelcomeMessageResponseDto,
} from './dto/message-response.dto.js';
import { LiveAgentsService, type LiveAgent } from './live-agents.service.js';
import { KeyedQueue } from './thread-queue.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ThreadState, TurnRecord } from '../conversations/conversations.types.js';

/** Who is talking to which agent: the messaging principal, the events webhook's key or a channel. */
export interface TurnCaller {
  organizationId: string;
  agentId: string;
}

/** One end-user turn, whatever the transport (JSON, SSE, WebSocket, events webhook, channel). */
export interface TurnRequest {
  /** The transport the turn came through (metrics). */
  surface: TurnSurface;
  text?: string;
  userId: string;
  threadId?: string;
  imageUrl?: string;
  agentVariables?: Record<string, unknown>;
  runtimeVersion?: string;
  includeTrace?: boolean;
  source?: TurnRecord['source'];
  /** A new thread carries this external id (events webhook `thread_id`). */
  externalThreadId?: string;
  /** The events-webhook event this turn answers; written with the turn (unique per event). */
  eventId?: string;
}

/** What a streaming transport is told while the turn runs; the final message comes from the returned outcome. */
export type TurnStreamEvent = { type: 'thread'; thread_id: string; interaction_id: string } | Exclude<TurnEvent, { type: 'result' }>;

const TITLE_LENGTH = 80;

/**
 * The messaging turn: resolve the live agent and the thread, run the engine, persist the interaction, answer.
 * Transports (controller, SSE, WebSocket, events processor, channels) are thin layers over `send`.
 */
@Injectable()
export class MessagingService {
  private readonly threads = new KeyedQueue();

  constructor(
    private readonly live: LiveAgentsService,
    private readonly runtime: RuntimeService,
    private readonly conversations: ConversationsService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Runs one turn. With `onEvent`, the engine streams and the caller is told the thread first, then deltas
   * and cards; errors thrown before the first event are ordinary request errors.
   */
  async send(caller: TurnCaller, request: TurnRequest, onEvent?: (event: TurnStreamEvent) => void): Promise<SendMessageResponseDto> {
    const live = await this.live.get(caller.organizationId, caller.agentId);
    // Begun with the live version first: a bad runtime pin is refused before any thread is read.
    const liveEngine = this.runtime.begin(live.prepared, request.runtimeVersion);
    const engineFor = (agent: LiveAgent) => (agent === live ? liveEngine : this.runtime.begin(agent.prepared, request.runtimeVersion));
    if (!request.threadId) {
      const placement = { userId: request.userId, versionId: null, revisionId: null };
      const agent = await this.live.route(caller.organizationId, caller.agentId, placement, 'already_counted');
      return this.turn(agent, engineFor(agent), null, request, onEvent);
    }
    const threadId = request.threadId.toLowerCase();
    // Turns on one thread run one after the other, in arrival order.
    return this.threads.run(threadId, async () => {
      const thread = await this.conversations.threadState(caller.organizationId, caller.agentId, threadId);
      if (!thread) throw new NotFoundError('Thread');
      const agent = await this.live.route(caller.organizationId, caller.agentId, thread, 'already_counted');
      return this.turn(agent, engineFor(agent), thread, request, onEvent);
    });
  }

  /** Answers the thread's last end-user message again with the version the thread is routed to; appends the new reply. */
  async rerun(caller: TurnCaller, threadId: string, includeTrace: boolean): Promise<SendMessageResponseDto> {
    await this.live.get(caller.organizationId, caller.agentId);
    return this.threads.run(threadId.toLowerCase(), async () => {
      const thread = await this.conversations.threadState(caller.organizationId, caller.agentId, threadId);
      if (!thread?.last) throw new NotFoundError('Thread');
      const agent = await this.live.route(caller.organizationId, caller.agentId, thread, 'already_counted');
      const { text, imageUrl, agentVariables } = thread.last;
      return this.turn(agent, this.runtime.begin(agent.prepared), thread, {
        text: text ?? undefined,
        imageUrl: imageUrl ?? undefined,
        agentVariables,
        userId: thread.userId,
        includeTrace,
        source: 'rerun',
        surface: 'json',
      });
    });
  }

  /**
   * The live version's greeting; with `userId`, the greeting of the arm a new thread of that end user gets (the caller,
   * channels, has just routed that user: the cache lookup is not counted twice).
   */
  async welcome(caller: TurnCaller, userId?: string): Promise<WelcomeMessageResponseDto> {
    const agent =
      userId === undefined
        ? await this.live.get(caller.organizationId, caller.agentId)
        : await this.live.route(caller.organizationId, caller.agentId, { userId, versionId: null, revisionId: null }, 'already_counted');
    return this.runtime.welcome(agent.prepared);
  }

  async followupSuggestions(
    caller: TurnCaller,
    body: { thread_id?: string; text?: string; limit?: number },
  ): Promise<FollowupSuggestionsResponseDto> {
    const agent = await this.live.get(caller.organizationId, caller.agentId);
    let history: ThreadState['history'] = [];
    if (body.thread_id) {
      const thread = await this.conversations.threadState(caller.organizationId, caller.agentId, body.thread_id);
      if (!thread) throw new NotFoundError('Thread');
      history = thread.history;
    }
    return { followup_suggestions: this.runtime.suggest(agent.prepared, { text: body.text, history }, body.limit ?? 3) };
  }

  private async turn(
    agent: LiveAgent,
    engine: EngineTurn,
    thread: ThreadState | null,
    request: TurnRequest,
    onEvent?: (event: TurnStreamEvent) => void,
  ): Promise<SendMessageResponseDto> {
    const threadId = thread?.id ?? newId();
    const interactionId = newId();
    const input: TurnInput = {
      text: request.text,
      imageUrl: request.imageUrl,
      agentVariables: request.agentVariables ?? {},
      history: thread?.history ?? [],
      surface: request.surface,
      agentId: agent.agentId,
    };
    let result: TurnResult;
    const timer = this.metrics.turnStarted(request.surface, agent.runtime, agent.prepared.provider);
    if (onEvent) {
      onEvent({ type: 'thread', thread_id: threadId, interaction_id: interactionId });
      result = await this.streamEngine(engine, input, onEvent).catch(timer.failed);
    } else {
      result = await engine.run(input).catch(timer.failed);
    }
    const createdAt = new Date();
    const replyMessageId = newId();
    const welcome = engine.welcomeMessage;
    const url = replyUrl(result);
    await this.conversations
      .recordTurn({
        interactionId,
        threadId,
        source: request.source ?? 'api',
        newThread: thread ? null : { title: threadTitle(request), externalId: request.externalThreadId ?? null },
        organizationId: agent.organizationId,
        projectId: agent.projectId,
        agentId: agent.agentId,
        userId: request.userId,
        userMessageId: newId(),
        userText: request.text ?? null,
        imageUrl: request.imageUrl ?? null,
        agentVariables: request.agentVariables ?? {},
        replyMessageId,
        replyText: result.text,
        reply: { cards: result.cards, followup_suggestions: result.followupSuggestions, url, welcome_message: welcome },
        trace: result.trace,
        runtime: result.runtime,
        runtimeBuild: result.runtimeBuild,
        versionId: agent.versionId,
        revisionId: agent.revisionId,
        versionTag: agent.versionTag,
        usage: result.usage,
        facets: result.facets,
        createdAt,
        eventId: request.eventId ?? null,
      })
      .catch(timer.failed);
    timer.completed(result.usage);
    const message: MessageDto = {
      id: replyMessageId,
      created_at: createdAt.toISOString(),
      text: result.text,
      sender: { id: agent.agentId, type: 'agent' },
      receiver: { id: request.userId, type: 'user' },
      cards: result.cards,
      welcome_message: welcome,
      followup_suggestions: result.followupSuggestions,
      url,
      input_tokens: result.usage.input_tokens,
      output_tokens: result.usage.output_tokens,
    };
    if (request.includeTrace) message.trace_info = result.trace;
    return { thread_id: threadId, interaction_id: interactionId, message };
  }

  private async streamEngine(engine: EngineTurn, input: TurnInput, onEvent: (event: TurnStreamEvent) => void): Promise<TurnResult> {
    for await (const event of engine.stream(input)) {
      if (event.type === 'result') return event.result;
      onEvent(event);
    }
    throw new Error('The engine stream ended without a result');
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
