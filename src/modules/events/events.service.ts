import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { AppConfig } from '../../config/app-config.js';
import { NoActiveVersionError } from '../messaging/messaging.errors.js';
import { TurnPipeline } from '../messaging/turn-pipeline.js';
import type { TurnOrigin } from '../messaging/turn.types.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ExternalThread } from '../conversations/conversations.types.js';
import { TurnAlreadyRecordedError } from '../conversations/conversations.errors.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { withCarriedContext, withSpan } from '../../telemetry/tracing.js';
import type { EventStatusDto } from './dto/event.dto.js';
import { EventNotFoundError, WebhookNoActiveVersionError } from './events.errors.js';
import { EventsRepository, type ClaimedEvent, type EventRow } from './events.repository.js';
import { isRefusedData, isTransient } from './failure-kinds.js';

const USER_ID_MAX = 255;
const ERROR_MAX = 1000;

/** What one attempt made of the event. */
type AttemptOutcome =
  { status: 'completed'; threadId: string; interactionId: string } | { status: 'failed'; error: string } | { status: 'retrying' };

/** What became of one attempt at an event (for logs and tests); `skipped` when it was not claimable. */
export type ProcessOutcome = 'completed' | 'failed' | 'retrying' | 'skipped';

/**
 * Runs accepted events. The workers' loop (EventsProcessor) claims due conversation heads in batches (`claimDue`) and
 * runs each (`run`): skip the engine if an earlier attempt already wrote the turn, run the turn (written with the
 * event id, unique), record the outcome, and announce it on the bus (`event.completed` / `event.failed`, awaited:
 * the listeners finish before the conversation's next event may be claimed). Per event that is one claim (shared
 * with the batch), the turn, and one completion.
 */
@Injectable()
export class EventsService {
  private readonly logger = new Logger(EventsService.name);
  /** This process's name on the leases it takes: host, pid and a random part (a restarted pid is another owner). */
  readonly leaseOwner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly repository: EventsRepository,
    private readonly turns: TurnPipeline,
    private readonly conversations: ConversationsService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly bus: EventBus,
  ) {
    // The events' queue is their table: its gauges read PostgreSQL (`failed` counts Bull's failed jobs elsewhere; 0 here).
    metrics.registerQueue('events', {
      counts: async () => ({ ...(await repository.backlog()), failed: 0 }),
      oldestWaitingSeconds: async () => (await repository.backlog()).oldestWaitingSeconds,
    });
  }

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

  /** Up to `limit` due conversation heads, claimed for this process under a lease of EVENTS_LEASE_MS. */
  claimDue(limit: number): Promise<ClaimedEvent[]> {
    return this.repository.claimDue(this.leaseOwner, this.config.events.leaseMs, limit);
  }

  /** Extends this process's leases on the events it is running; returns the ids it still holds. */
  renewLeases(eventIds: string[]): Promise<string[]> {
    return this.repository.renewLeases(this.leaseOwner, eventIds, this.config.events.leaseMs);
  }

  /** One attempt at this event, if it is due and the head of its conversation now. */
  async process(eventId: string): Promise<ProcessOutcome> {
    const event = await this.repository.claim(eventId, this.leaseOwner, this.config.events.leaseMs);
    return event ? this.run(event) : 'skipped';
  }

  /**
   * One attempt at an event this process claimed; returns what became of it. Its span is a child of the accept's
   * (the row carries the accept's trace context): one trace from the webhook call to the turn.
   */
  run(event: ClaimedEvent): Promise<Exclude<ProcessOutcome, 'skipped'>> {
    return withCarriedContext(event.trace_context ?? undefined, () => withSpan('event.process', () => this.runAttempt(event)));
  }

  private async runAttempt(event: ClaimedEvent): Promise<Exclude<ProcessOutcome, 'skipped'>> {
    if (event.taken_over) {
      this.logger.warn({ eventId: event.id, attempts: event.attempts }, 'took over an event whose lease had expired');
    }
    let thread: ExternalThread | undefined;
    let outcome: AttemptOutcome;
    try {
      thread = event.external_thread_id
        ? await this.conversations.threadByExternalId(event.organization_id, event.agent_id, event.external_thread_id)
        : undefined;
      outcome = await this.attempt(event, thread);
    } catch (error) {
      outcome = await this.recordFailure(event, error);
    }
    this.metrics.eventAttempted(outcome.status, event.created_at);
    if (outcome.status !== 'retrying') await this.announce(event, outcome, thread?.channel ?? null);
    return outcome.status;
  }

  /** `thread`: the thread the event's external id names, if it exists. */
  private async attempt(event: ClaimedEvent, thread: ExternalThread | undefined): Promise<AttemptOutcome> {
    // A channel message (ChannelInboundService hands them over as events) continues the channel thread it names.
    // Only a later attempt can find its turn written (an earlier one died between the turn and its completion).
    const retried = event.attempts > 1;
    const origin: TurnOrigin = thread?.channel
      ? { kind: 'channel', eventId: event.id, retried, channel: thread.channel, externalThreadId: event.external_thread_id! }
      : { kind: 'event', eventId: event.id, retried, externalThreadId: event.external_thread_id };
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
      await this.repository.fail(event.id, this.leaseOwner, message);
      return { status: 'failed', error: message };
    }
    // Due again after the backoff; a worker's claim takes it then (its conversation waits meanwhile).
    const delayMs = this.config.events.backoffMs * 2 ** (event.attempts - 1);
    await this.repository.retryLater(event.id, this.leaseOwner, message, delayMs);
    return { status: 'retrying' };
  }

  /** Tells the listeners (channels answer the phone) that the event reached its final state. */
  private async announce(
    event: ClaimedEvent,
    outcome: Exclude<AttemptOutcome, { status: 'retrying' }>,
    channel: string | null,
  ): Promise<void> {
    const about = {
      eventId: event.id,
      organizationId: event.organization_id,
      agentId: event.agent_id,
      externalThreadId: event.external_thread_id,
      channel,
    };
    if (outcome.status === 'completed') {
      await this.bus.publish('event.completed', { ...about, threadId: outcome.threadId, interactionId: outcome.interactionId });
    } else {
      await this.bus.publish('event.failed', { ...about, error: outcome.error });
    }
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
