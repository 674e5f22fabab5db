import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';
import { UnitOfWork } from '../../database/unit-of-work.js';

export type EventStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface NewEvent {
  id: string;
  organizationId: string;
  agentId: string;
  externalThreadId: string | null;
  text: string | null;
  /** The JSON text stored in the jsonb column (validated by the accept path). */
  agentVariablesJson: string;
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

/** One group of due events: organization bucket, age bucket (index into the bounds), count and oldest age in seconds. */
export type DueBacklogRow = { bucket: number; age_bucket: number; n: number; oldest: number };

/** What ingestion needs to know about the key's agent, in one read (cached by the caller). */
export interface IngestTarget {
  agent_deleted: boolean;
  live_revision_id: string | null;
  schema_version: number | null;
}

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
  constructor(
    private readonly sql: SqlService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

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
      `INSERT INTO events (id, organization_id, agent_id, external_thread_id, text, agent_variables)
       SELECT id, organization_id, agent_id, external_thread_id, text, agent_variables::jsonb
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
           AS e(id, organization_id, agent_id, external_thread_id, text, agent_variables)
       ON CONFLICT (id) DO NOTHING`,
      [
        events.map((e) => e.id),
        events.map((e) => e.organizationId),
        events.map((e) => e.agentId),
        events.map((e) => e.externalThreadId),
        events.map((e) => e.text),
        events.map((e) => e.agentVariablesJson),
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

  /**
   * Events that should be running and are not, read from the table itself (docs/operations.md, "Backlog read from
   * PostgreSQL"): queued and due, or processing past their lease. Grouped by organization bucket
   * (`hashtext(organization_id)` mod `buckets`: a bounded label, never an id) and by how long they have been due
   * (`width_bucket` over `ageBoundsSeconds`: 0 below the first bound, i from the i-th): at most buckets × (bounds + 1) rows.
   */
  async dueBacklog(ageBoundsSeconds: readonly number[], buckets: number): Promise<DueBacklogRow[]> {
    return this.sql.rows<DueBacklogRow>(
      `WITH due AS (
         SELECT organization_id,
                greatest(0, extract(epoch FROM now() - CASE WHEN status = 'queued' THEN available_at ELSE coalesce(locked_until, updated_at) END))::float8 AS age
           FROM events
          WHERE status IN ('queued', 'processing')
            AND CASE WHEN status = 'queued' THEN available_at <= now() ELSE locked_until IS NULL OR locked_until < now() END
       )
       SELECT (abs(hashtext(organization_id)::bigint) % $2)::int AS bucket, width_bucket(age, $1::float8[]) AS age_bucket,
              count(*)::int AS n, max(age)::float8 AS oldest
         FROM due
        GROUP BY 1, 2`,
      [ageBoundsSeconds, buckets],
      'events_due_backlog',
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
   * Takes the event for one attempt if it is due and the head of its conversation: queued and past its backoff,
   * or processing under an expired lease (its worker died). Atomic: of two concurrent claims one wins.
   */
  claim(eventId: string, leaseMs: number): Promise<ClaimedEvent | undefined> {
    return this.sql.one<ClaimedEvent>(
      `UPDATE events e
          SET status = 'processing', attempts = e.attempts + 1, locked_until = now() + $2 * interval '1 millisecond', updated_at = now()
        WHERE e.id = $1
          AND ((e.status = 'queued' AND e.available_at <= now()) OR (e.status = 'processing' AND e.locked_until < now()))
          AND ${IS_HEAD}
       RETURNING e.id, e.organization_id, e.agent_id, e.external_thread_id, e.text, e.agent_variables, e.attempts, e.created_at`,
      [eventId, leaseMs],
      'events_claim',
    );
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

  async fail(eventId: string, error: string): Promise<void> {
    await this.sql.rows(
      `UPDATE events SET status = 'failed', error = $2, locked_until = NULL, completed_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'processing'`,
      [eventId, error],
      'events_fail',
    );
  }

  /** Back to queued, due again after `delayMs`; the conversation stays blocked behind it meanwhile. */
  async retryLater(eventId: string, error: string, delayMs: number): Promise<void> {
    await this.sql.rows(
      `UPDATE events SET status = 'queued', error = $2, locked_until = NULL,
              available_at = now() + $3 * interval '1 millisecond', enqueued_at = now() + $3 * interval '1 millisecond', updated_at = now()
        WHERE id = $1 AND status = 'processing'`,
      [eventId, error, delayMs],
      'events_retry_later',
    );
  }

  /** The next pending event of a conversation, to hand on to once its predecessor is done. */
  async nextInConversation(agentId: string, externalThreadId: string): Promise<string | undefined> {
    const row = await this.sql.one<{ id: string }>(
      `SELECT id FROM events WHERE agent_id = $1 AND external_thread_id = $2 AND status IN ('queued', 'processing') ORDER BY seq LIMIT 1`,
      [agentId, externalThreadId],
      'events_next_in_conversation',
    );
    return row?.id;
  }

  /**
   * Sweeper, under a transaction-scoped advisory lock so one instance sweeps at a time: the heads of their
   * conversations that are due and have waited past `staleMs` since last enqueued (lost job, lost Redis), and
   * events whose worker's lease expired (crashed worker). Marks them enqueued now and returns their ids.
   */
  async sweep(staleMs: number, limit: number): Promise<string[] | null> {
    return this.unitOfWork.run(async () => {
      const lock = await this.sql.one<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('events-sweeper')) AS locked`);
      if (!lock?.locked) return null;
      const swept = await this.sql.rows<{ id: string }>(
        `UPDATE events u SET enqueued_at = now()
           FROM (SELECT e.id FROM events e
                  WHERE ((e.status = 'queued' AND e.available_at <= now() AND e.enqueued_at < now() - $1 * interval '1 millisecond')
                      OR (e.status = 'processing' AND e.locked_until < now()))
                    AND ${IS_HEAD}
                  ORDER BY e.seq LIMIT $2) s
          WHERE u.id = s.id
         RETURNING u.id`,
        [staleMs, limit],
      );
      return swept.map((r) => r.id);
    });
  }
}
