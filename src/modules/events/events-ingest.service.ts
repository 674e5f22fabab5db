import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { LiveRevisionChange, ProjectDeleted } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { INPUT_LIMITS } from '../../common/validation/input-limits.js';
import { charCount } from '../../common/validation/char-length.js';
import { AppConfig } from '../../config/app-config.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { traceCarrier } from '../../telemetry/tracing.js';
import { SUPPORTED_SCHEMA_VERSIONS } from '../bundles/bundle.types.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { EventStoreUnavailableError, EventsUnavailableError, NoRuntimeVersionError, WebhookNoActiveVersionError } from './events.errors.js';
import { EventsRepository, type IngestTarget } from './events.repository.js';
import { isRefusedData, isStoreUnavailable } from './failure-kinds.js';
import { EventsWakeup } from './events-wakeup.js';
import { GroupInsert } from './group-insert.js';

/** What the key's agent allows, cached briefly (the accept path must not read it from PostgreSQL each time). */
export const INGEST_TARGET_TTL_MS = 2000;
const THREAD_ID_MAX = 255;

export interface EventInput {
  text: string | null;
  /** `agent_variables` as the JSON text that is stored, checked to be text PostgreSQL accepts as jsonb. */
  agentVariablesJson: string;
  externalThreadId: string | null;
}

/**
 * The accept path (after authentication): body rules, agent checks on a cached read, one INSERT (committed before
 * the 202; concurrent accepts share a statement, see GroupInsert), then a fire-and-forget wake-up of the workers
 * (one Redis PUBLISH per event-loop tick, EventsWakeup). Sheds load
 * with 503 while the backlog is over EVENTS_MAX_BACKLOG, and from the start of shutdown.
 */
@Injectable()
export class EventsIngestService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EventsIngestService.name);
  private readonly targets: LRUCache<string, { target: IngestTarget | null }>;
  private backlog = 0;
  private closing = false;
  private readonly inserts: GroupInsert;

  constructor(
    private readonly repository: EventsRepository,
    private readonly wakeup: EventsWakeup,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.targets = new LRUCache({
      max: 50_000,
      ttl: INGEST_TARGET_TTL_MS,
      fetchMethod: async (key) => {
        const [organizationId, agentId] = key.split(':') as [string, string];
        return { target: (await this.repository.ingestTarget(organizationId, agentId)) ?? null };
      },
    });
    // A quarter of the pool at most, so processing and the other routes keep connections under an accept flood.
    this.inserts = new GroupInsert((events) => this.repository.insertMany(events), {
      lanes: Math.max(1, Math.floor(config.db.poolSize / 4)),
      failsEveryRow: isStoreUnavailable,
    });
  }

  @OnBusEvent('agent.live_changed')
  onLiveChanged(change: LiveRevisionChange): void {
    this.targets.delete(`${change.organizationId}:${change.agentId}`);
  }

  @OnBusEvent('project.deleted')
  onProjectDeleted(deleted: ProjectDeleted): void {
    for (const agentId of deleted.agentIds) this.targets.delete(`${deleted.organizationId}:${agentId}`);
  }

  onModuleInit(): void {
    void this.sampleBacklog();
  }

  /** Shutdown has begun: refuse new events (503 + Retry-After) while in-flight requests and jobs finish. */
  beginShutdown(): void {
    this.closing = true;
  }

  onModuleDestroy(): void {
    this.beginShutdown();
  }

  /**
   * `eventId`: the id an Idempotency-Key reserved for this event (docs/idempotency.md). Should a first request have
   * stored it and crashed before answering, the repeat that takes the key over stores nothing new and answers the
   * same id (the insert skips an id that exists).
   */
  async accept(organizationId: string, agentId: string, body: unknown, eventId?: string): Promise<string> {
    if (this.closing) throw new EventsUnavailableError('shutting down');
    // The body is the caller's alone: a bad one is 422 whatever state the agent is in. Everything PostgreSQL could
    // refuse is refused here, before the row shares a statement with other callers' rows.
    const input = parseEventBody(body);
    await this.assertTarget(organizationId, agentId);
    if (this.backlog >= this.config.events.maxBacklog) throw new EventsUnavailableError('backlog over its bound');
    const id = eventId ?? newId();
    try {
      const trace = traceCarrier();
      await this.inserts.insert({ id, organizationId, agentId, ...input, traceContextJson: trace ? JSON.stringify(trace) : null });
    } catch (error) {
      throw this.insertFailure(error);
    }
    this.backlog += 1;
    this.wakeup.nudge();
    this.metrics.eventAccepted();
    return id;
  }

  /**
   * The answer when the event's own row was not committed (nothing was queued): 502 only when the store is
   * unavailable (worth retrying); 422 when PostgreSQL refused a value of the event (retrying cannot help); else a bug.
   */
  private insertFailure(error: unknown): unknown {
    if (isStoreUnavailable(error)) {
      this.logger.warn({ err: error }, 'event insert failed: the event store is unavailable');
      return new EventStoreUnavailableError();
    }
    if (isRefusedData(error)) {
      this.logger.warn({ err: error }, 'event insert refused by PostgreSQL although the body passed validation');
      return ValidationError.field('body', 'A value of this event cannot be stored (a character or a nesting the event store refuses)');
    }
    return error;
  }

  private async assertTarget(organizationId: string, agentId: string): Promise<void> {
    let entry: { target: IngestTarget | null } | undefined;
    try {
      entry = await this.targets.fetch(`${organizationId}:${agentId}`);
    } catch (error) {
      this.logger.warn({ err: error }, 'agent lookup failed');
      throw new EventStoreUnavailableError();
    }
    const target = entry?.target;
    if (!target) throw new NotFoundError('Agent');
    if (target.agent_deleted) throw new NotFoundError('Agent');
    if (!target.live_revision_id) throw new WebhookNoActiveVersionError();
    const schemaVersion = target.schema_version === null ? SUPPORTED_SCHEMA_VERSIONS[0] : Number(target.schema_version);
    if (!(SUPPORTED_SCHEMA_VERSIONS as readonly number[]).includes(schemaVersion)) throw new NoRuntimeVersionError(schemaVersion);
  }

  /** Re-reads the pending-event count (at start, then every second as a periodic task, or now); returns it. */
  @JobHandler(JobName.SampleEventsBacklog)
  async sampleBacklog(): Promise<number> {
    try {
      this.backlog = await this.repository.pendingCount();
    } catch {
      // Keep the last figure; the accept path reports the store's state itself.
    }
    return this.backlog;
  }
}

/**
 * The webhook body rules (spec "Events webhook"): `text` and/or `agent_variables`; `thread_id` trimmed, 1..255,
 * blank = none. Other top-level fields are accepted and ignored, which is why this is not the global DTO pipe
 * (it rejects unknown fields). `text` is bounded by INPUT_LIMITS.messageMaxChars. What PostgreSQL could refuse in
 * any string, and nesting, were refused by the one JSON parser at the edge (src/common/validation/safe-json.ts),
 * which every body (and every channel form field handed over here) went through.
 */
export function parseEventBody(body: unknown): EventInput {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ValidationError.field('body', 'The body must be a JSON object with text and/or agent_variables');
  }
  const raw = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const { text, agent_variables: variables, thread_id: threadId } = raw;
  const textProblem = typeof text === 'string' ? textRuleBroken(text) : text === undefined ? undefined : 'text must be a string';
  if (textProblem) details.push({ field: 'text', message: textProblem });
  let agentVariablesJson = '{}';
  if (variables !== undefined) {
    if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) {
      details.push({ field: 'agent_variables', message: 'agent_variables must be an object' });
    } else {
      agentVariablesJson = JSON.stringify(variables);
    }
  }
  let externalThreadId: string | null = null;
  if (threadId !== undefined && threadId !== null) {
    if (typeof threadId !== 'string') details.push({ field: 'thread_id', message: 'thread_id must be a string' });
    else {
      const trimmed = threadId.trim();
      if (charCount(trimmed) > THREAD_ID_MAX) {
        details.push({ field: 'thread_id', message: `thread_id must be at most ${THREAD_ID_MAX} characters after trimming` });
      } else if (trimmed.length > 0) externalThreadId = trimmed;
    }
  }
  if (details.length === 0 && text === undefined && variables === undefined) {
    details.push({ field: 'text', message: 'Provide text, agent_variables, or both' });
  }
  if (details.length > 0) throw new ValidationError(details);
  return { text: (text as string | undefined) ?? null, agentVariablesJson, externalThreadId };
}

function textRuleBroken(text: string): string | undefined {
  if (text === '') return 'text must not be empty; omit it to run on agent_variables alone';
  if (charCount(text) > INPUT_LIMITS.messageMaxChars) return `text must be at most ${INPUT_LIMITS.messageMaxChars} characters`;
  return undefined;
}
