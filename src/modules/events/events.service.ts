import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { AppConfig } from '../../config/app-config.js';
import { NoActiveVersionError } from '../messaging/messaging.errors.js';
import { TurnPipeline } from '../messaging/turn-pipeline.js';
import type { TurnOrigin } from '../messaging/turn.types.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { TurnAlreadyRecordedError } from '../conversations/conversations.errors.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { EventStatusDto } from './dto/event.dto.js';
import { EventJobs } from './event-jobs.js';
import { EventNotFoundError, WebhookNoActiveVersionError } from './events.errors.js';
import { EventsRepository, type ClaimedEvent, type EventRow } from './events.repository.js';
import { isRefusedData, isTransient } from './failure-kinds.js';

const USER_ID_MAX = 255;
const ERROR_MAX = 1000;
/** Events enqueued again per sweep at most (the rest on the next sweep). */
const SWEEP_LIMIT = 5000;

/** What one attempt made of the event. */
type AttemptOutcome =
  { status: 'completed'; threadId: string; interactionId: string } | { status: 'failed'; error: string } | { status: 'retrying' };

/**
 * Runs accepted events. `process(eventId)` is what every job does, however many times it is delivered:
 * claim the event in PostgreSQL (only when due and the head of its conversation), skip the engine if an
 * earlier attempt already wrote the turn, run the turn (written with the event id, unique), record the
 * outcome, announce it on the bus (`event.completed` / `event.failed`, awaited: the listeners finish before the
 * conversation's next event may start), and hand the conversation on to its next event.
 */
@Injectable()
export class EventsService {
  private readonly logger = new Logger(EventsService.name);

  constructor(
    private readonly repository: EventsRepository,
    private readonly turns: TurnPipeline,
    private readonly conversations: ConversationsService,
    private readonly jobs: EventJobs,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly bus: EventBus,
  ) {}

  /**
   * Deletes the events that ran on these threads (their text and variables are the conversation's content), in the
   * caller's transaction: thread erasure and retention (docs/governance.md). Returns how many.
   */
  deleteForThreads(threadIds: string[]): Promise<number> {
    return this.repository.deleteForThreads(threadIds);
  }

  async status(organizationId: string, agentId: string, eventId: string): Promise<EventStatusDto> {
    const row = await this.repository.find(organizationId, agentId, eventId.toLowerCase());
    if (!row) throw new EventNotFoundError();
    return toStatusDto(row);
  }

  /** One attempt at the event, if it may run now; returns what became of it (for logs and tests). */
  async process(eventId: string): Promise<'completed' | 'failed' | 'retrying' | 'skipped'> {
    const event = await this.repository.claim(eventId, this.config.events.leaseMs);
    if (!event) return 'skipped';
    let outcome: AttemptOutcome;
    try {
      outcome = await this.attempt(event);
    } catch (error) {
      outcome = await this.recordFailure(event, error);
    }
    this.metrics.eventAttempted(outcome.status, event.created_at);
    if (outcome.status === 'retrying') return outcome.status;
    await this.announce(event, outcome);
    await this.handOn(event);
    return outcome.status;
  }

  /**
   * Enqueues again the events a crash or a lost Redis left behind: due conversation heads not picked up within
   * EVENTS_STALE_MS, and events whose worker's lease expired. One instance at a time (a PostgreSQL advisory lock);
   * returns how many (0 when another instance holds the lock).
   */
  async sweep(): Promise<number> {
    try {
      const ids = await this.repository.sweep(this.config.events.staleMs, SWEEP_LIMIT);
      if (!ids || ids.length === 0) return 0;
      const stamp = Date.now().toString(36);
      for (const id of ids) this.jobs.enqueue(id, { jobId: `${id}:sweep:${stamp}` });
      await this.jobs.flush();
      this.logger.log({ events: ids.length }, 'swept pending events back onto the queue');
      return ids.length;
    } catch (error) {
      this.logger.warn({ err: error }, 'events sweep failed');
      return 0;
    }
  }

  private async attempt(event: ClaimedEvent): Promise<AttemptOutcome> {
    const thread = event.external_thread_id
      ? await this.conversations.threadByExternalId(event.organization_id, event.agent_id, event.external_thread_id)
      : undefined;
    // A channel message (ChannelInboundService hands them over as events) continues the channel thread it names.
    const origin: TurnOrigin = thread?.channel
      ? { kind: 'channel', eventId: event.id, channel: thread.channel, externalThreadId: event.external_thread_id! }
      : { kind: 'event', eventId: event.id, externalThreadId: event.external_thread_id };
    try {
      const result = await this.turns.run(
        { organizationId: event.organization_id, agentId: event.agent_id },
        { origin, text: event.text ?? undefined, userId: eventUserId(event), agentVariables: event.agent_variables, threadId: thread?.id },
      );
      await this.repository.complete(event.id, result.thread_id, result.interaction_id);
      return { status: 'completed', threadId: result.thread_id, interactionId: result.interaction_id };
    } catch (error) {
      // The webhook answers with its own code (spec "Errors"): messaging's error is translated here, at its edge.
      if (error instanceof NoActiveVersionError) throw new WebhookNoActiveVersionError();
      // An earlier attempt of this event wrote its turn (before this one, or first in a race when a lease expired under
      // a slow worker): done, once.
      if (error instanceof TurnAlreadyRecordedError) {
        const turn = await this.conversations.turnForEvent(event.id);
        if (!turn) throw error;
        await this.repository.complete(event.id, turn.thread_id, turn.id);
        return { status: 'completed', threadId: turn.thread_id, interactionId: turn.id };
      }
      throw error;
    }
  }

  /**
   * Only a transient failure (provider unavailable or slow, store unavailable) is retried, with backoff. Any other
   * failure would happen again on every attempt — the agent deleted, input refused, data PostgreSQL refuses, an
   * engine error — so the event fails at once, with its reason, and its conversation moves on.
   */
  private async recordFailure(event: ClaimedEvent, error: unknown): Promise<AttemptOutcome> {
    const message = describe(error);
    if (!isTransient(error) || event.attempts >= this.config.events.maxAttempts) {
      this.logger.warn({ eventId: event.id, attempts: event.attempts, err: error }, 'event failed');
      await this.repository.fail(event.id, message);
      return { status: 'failed', error: message };
    }
    const delayMs = this.config.events.backoffMs * 2 ** (event.attempts - 1);
    await this.repository.retryLater(event.id, message, delayMs);
    this.jobs.enqueue(event.id, { jobId: `${event.id}:retry:${event.attempts}`, delayMs });
    return { status: 'retrying' };
  }

  /** Tells the listeners (channels answer the phone) that the event reached its final state. */
  private async announce(event: ClaimedEvent, outcome: Exclude<AttemptOutcome, { status: 'retrying' }>): Promise<void> {
    const about = {
      eventId: event.id,
      organizationId: event.organization_id,
      agentId: event.agent_id,
      externalThreadId: event.external_thread_id,
    };
    if (outcome.status === 'completed') {
      await this.bus.emitAsync('event.completed', { ...about, threadId: outcome.threadId, interactionId: outcome.interactionId });
    } else {
      await this.bus.emitAsync('event.failed', { ...about, error: outcome.error });
    }
  }

  /** The event is done: the next pending event of its conversation may run now. */
  private async handOn(event: ClaimedEvent): Promise<void> {
    if (!event.external_thread_id) return;
    const next = await this.repository.nextInConversation(event.agent_id, event.external_thread_id);
    if (next) this.jobs.enqueue(next, { jobId: `${next}:after:${event.id}` });
  }
}

/**
 * The end user of an event's turn: `agent_variables.user_id` when it is a non-blank string (≤ 255), else the
 * caller's thread_id, else `event:<event_id>` (docs/events.md).
 */
export function eventUserId(event: Pick<ClaimedEvent, 'id' | 'agent_variables' | 'external_thread_id'>): string {
  const given = event.agent_variables?.user_id;
  if (typeof given === 'string' && given.trim().length > 0 && given.trim().length <= USER_ID_MAX) return given.trim();
  return event.external_thread_id ?? `event:${event.id}`;
}

/** The reason recorded on the event, led by a wire code as the API's errors are. */
function describe(error: unknown): string {
  const text =
    error instanceof AppError
      ? `${error.code}: ${error.message}`
      : isRefusedData(error)
        ? `${ErrorCode.ValidationError}: the event store refused a value of this event (${(error as Error).message})`
        : `${ErrorCode.InternalError}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  return text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX - 1)}…` : text;
}

export function toStatusDto(row: EventRow): EventStatusDto {
  const dto: EventStatusDto = {
    event_id: row.id,
    status: row.status,
    thread_id: row.thread_id,
    external_thread_id: row.external_thread_id,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
  };
  if (row.error) dto.error = row.error;
  if (row.completed_at) dto.completed_at = row.completed_at.toISOString();
  return dto;
}
