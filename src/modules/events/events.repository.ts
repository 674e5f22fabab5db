import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';

export type EventStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface NewEvent {
  id: string;
  organizationId: string;
  agentId: string;
  externalThreadId: string | null;
  text: string | null;
  /** The JSON text stored in the jsonb column (validated by the accept path). */
  agentVariablesJson: string;
  /** The accept's trace context (JSON text of a W3C carrier) while tracing is on, for the processing's span. */
  traceContextJson: string | null;
}

/** An event as its processor sees it after claiming it. */
export interface ClaimedEvent {
  id: string;
  organization_id: string;
  agent_id: string;
  external_thread_id: string | null;
  text: string | null;
  agent_variables: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  trace_context: Record<string, string> | null;
  /** Claimed from a worker whose lease had expired (it died or stalled), not from the queue. */
  taken_over: boolean;
}

export interface EventRow {
  id: string;
  status: EventStatus;
  thread_id: string | null;
  external_thread_id: string | null;
  attempts: number;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** What ingestion needs to know about the key's agent, in one read (cached by the caller). */
export interface IngestTarget {
  agent_deleted: boolean;
  live_revision_id: string | null;
  schema_version: number | null;
}

// Due for an attempt: queued past its backoff, or processing under an expired lease (its worker died or stalled).
const IS_DUE = `((e.status = 'queued' AND e.available_at <= now()) OR (e.status = 'processing' AND e.locked_until < now()))`;

const CLAIMED = `u.id, u.organization_id, u.agent_id, u.external_thread_id, u.text, u.agent_variables, u.attempts, u.created_at,
       u.trace_context, c.was = 'processing' AS taken_over`;

// "No earlier event of this conversation is still pending": the head of the conversation, the only one that may run.
const IS_HEAD = `(e.external_thread_id IS NULL OR NOT EXISTS (
   SELECT 1 FROM events p
    WHERE p.agent_id = e.agent_id AND p.external_thread_id = e.external_thread_id
      AND p.seq < e.seq AND p.status IN ('queued', 'processing')))`;

/**
 * The events store, as prepared SQL (the accept path is one INSERT). PostgreSQL is the source of truth for
 * every event's state; the claim statement is what serialises a conversation (see docs/events.md).
 */
@Injectable()
export class EventsRepository {
  constructor(private readonly sql: SqlService) {}

  ingestTarget(organizationId: string, agentId: string): Promise<IngestTarget | undefined> {
    return this.sql.one<IngestTarget>(
      `SELECT (a.deleted_at IS NOT NULL OR p.deleted_at IS NOT NULL) AS agent_deleted, a.live_revision_id,
              CASE WHEN r.bundle ? 'schema_version' THEN (r.bundle->>'schema_version')::numeric ELSE NULL END AS schema_version
         FROM agents a
         JOIN projects p ON p.id = a.project_id
         LEFT JOIN agent_revisions r ON r.id = a.live_revision_id
        WHERE a.id = $1 AND a.organization_id = $2`,
      [agentId, organizationId],
      'events_ingest_target',
    );
  }

  /**
   * Stores events in one statement (one commit): all of them or none. Rows get `seq` in array order, which is
   * their order of arrival. One prepared statement serves every batch size. An id that exists is skipped: the
   * event an idempotency key reserved it for was stored by a first request that crashed before answering.
   */
  async insertMany(events: NewEvent[]): Promise<void> {
    await this.sql.rows(
      `INSERT INTO events (id, organization_id, agent_id, external_thread_id, text, agent_variables, trace_context)
       SELECT id, organization_id, agent_id, external_thread_id, text, agent_variables::jsonb, trace_context::jsonb
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           AS e(id, organization_id, agent_id, external_thread_id, text, agent_variables, trace_context)
       ON CONFLICT (id) DO NOTHING`,
      [
        events.map((e) => e.id),
        events.map((e) => e.organizationId),
        events.map((e) => e.agentId),
        events.map((e) => e.externalThreadId),
        events.map((e) => e.text),
        events.map((e) => e.agentVariablesJson),
        events.map((e) => e.traceContextJson),
      ],
      'events_insert_many',
    );
  }

  /** Deletes the events that ran on these threads (thread erasure and retention); returns how many. */
  async deleteForThreads(threadIds: string[]): Promise<number> {
    if (threadIds.length === 0) return 0;
    const rows = await this.sql.rows<{ n: string }>(
      `WITH deleted AS (DELETE FROM events WHERE thread_id = ANY($1::char(24)[]) RETURNING 1) SELECT count(*) AS n FROM deleted`,
      [threadIds],
      'events_delete_for_threads',
    );
    return Number(rows[0]?.n ?? 0);
  }

  find(organizationId: string, agentId: string, eventId: string): Promise<EventRow | undefined> {
    return this.sql.one<EventRow>(
      `SELECT id, status, thread_id, external_thread_id, attempts, error, created_at, completed_at
         FROM events WHERE id = $1 AND organization_id = $2 AND agent_id = $3`,
      [eventId, organizationId, agentId],
      'events_find',
    );
  }

  /** Pending events (queued or processing): the backlog ingestion sheds load on. */
  async pendingCount(): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE status IN ('queued', 'processing')`,
      [],
      'events_pending_count',
    );
    return row?.n ?? 0;
  }

  /**
   * The backlog as the queue gauges show it: due and waiting, running, waiting out a retry backoff; and how long the
   * oldest due event has waited (since it was accepted or became due again), in seconds.
   */
  async backlog(): Promise<{ waiting: number; active: number; delayed: number; oldestWaitingSeconds: number }> {
    const row = await this.sql.one<{ waiting: number; active: number; delayed: number; oldest: number | null }>(
      `SELECT count(*) FILTER (WHERE status = 'queued' AND available_at <= now())::int AS waiting,
              count(*) FILTER (WHERE status = 'processing')::int AS active,
              count(*) FILTER (WHERE status = 'queued' AND available_at > now())::int AS delayed,
              extract(epoch FROM now() - min(GREATEST(created_at, available_at)) FILTER (WHERE status = 'queued' AND available_at <= now()))::float8 AS oldest
         FROM events WHERE status IN ('queued', 'processing')`,
      [],
      'events_backlog',
    );
    return {
      waiting: row?.waiting ?? 0,
      active: row?.active ?? 0,
      delayed: row?.delayed ?? 0,
      oldestWaitingSeconds: Math.max(0, row?.oldest ?? 0),
    };
  }

  /**
   * Takes up to `limit` due conversation heads for one attempt each, oldest first, in one statement: `queued` and past
   * their backoff, or `processing` under an expired lease (their worker died or stalled: a takeover, counted in
   * `takeovers`). Each gets `attempts + 1` and a lease owned by `owner` until now() + `leaseMs`. Rows another claim
   * holds are skipped, so concurrent claimers never wait for each other and one event goes to one of them.
   */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedEvent[]> {
    return this.sql.rows<ClaimedEvent>(
      `UPDATE events u
          SET status = 'processing', attempts = u.attempts + 1, lease_owner = $1,
              locked_until = now() + $2 * interval '1 millisecond', takeovers = u.takeovers + (u.status = 'processing')::int,
              updated_at = now()
         FROM (SELECT e.id, e.status AS was FROM events e
                WHERE ${IS_DUE} AND ${IS_HEAD}
                ORDER BY e.seq LIMIT $3
                FOR UPDATE SKIP LOCKED) c
        WHERE u.id = c.id
       RETURNING ${CLAIMED}`,
      [owner, leaseMs, limit],
      'events_claim_due',
    );
  }

  /** Takes this one event, on the same terms as `claimDue` (a nudge for one event, e.g. after a restart). */
  claim(eventId: string, owner: string, leaseMs: number): Promise<ClaimedEvent | undefined> {
    return this.sql.one<ClaimedEvent>(
      `UPDATE events u
          SET status = 'processing', attempts = u.attempts + 1, lease_owner = $2,
              locked_until = now() + $3 * interval '1 millisecond', takeovers = u.takeovers + (u.status = 'processing')::int,
              updated_at = now()
         FROM (SELECT e.id, e.status AS was FROM events e WHERE e.id = $1 AND ${IS_DUE} AND ${IS_HEAD} FOR UPDATE SKIP LOCKED) c
        WHERE u.id = c.id
       RETURNING ${CLAIMED}`,
      [eventId, owner, leaseMs],
      'events_claim',
    );
  }

  /**
   * Extends the leases `owner` holds on these events to now() + `leaseMs` (one statement for all of a worker's
   * events); returns the ids still held (an id missing was taken over after its lease expired, or is done).
   */
  async renewLeases(owner: string, eventIds: string[], leaseMs: number): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `UPDATE events SET locked_until = now() + $3 * interval '1 millisecond'
        WHERE id = ANY($2::char(24)[]) AND status = 'processing' AND lease_owner = $1
       RETURNING id`,
      [owner, eventIds, leaseMs],
      'events_renew_leases',
    );
    return rows.map((r) => r.id);
  }

  async complete(eventId: string, threadId: string, interactionId: string): Promise<void> {
    await this.sql.rows(
      `UPDATE events SET status = 'completed', thread_id = $2, interaction_id = $3, error = NULL, locked_until = NULL,
              completed_at = now(), updated_at = now()
        WHERE id = $1 AND status <> 'completed'`,
      [eventId, threadId, interactionId],
      'events_complete',
    );
  }

  /** Gives up on the event; only while `owner` holds it (a worker whose lease was taken over records nothing). */
  async fail(eventId: string, owner: string, error: string): Promise<void> {
    await this.sql.rows(
      `UPDATE events SET status = 'failed', error = $3, locked_until = NULL, completed_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'processing' AND lease_owner = $2`,
      [eventId, owner, error],
      'events_fail',
    );
  }

  /** Back to queued, due again after `delayMs`; the conversation stays blocked behind it meanwhile. */
  async retryLater(eventId: string, owner: string, error: string, delayMs: number): Promise<void> {
    await this.sql.rows(
      `UPDATE events SET status = 'queued', error = $3, locked_until = NULL,
              available_at = now() + $4 * interval '1 millisecond', updated_at = now()
        WHERE id = $1 AND status = 'processing' AND lease_owner = $2`,
      [eventId, owner, error, delayMs],
      'events_retry_later',
    );
  }
}
