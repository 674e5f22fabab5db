import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import type { SealedSecretColumns } from './webhook-endpoints.repository.js';
import { ATTEMPT_LOG_LIMIT } from './webhooks.constants.js';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt as the delivery log keeps it. */
export interface WebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_body: string | null;
}

/** A `webhook_deliveries` row as the delivery log shows it. */
export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  thread_id: string | null;
  sequence: string | null;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  attempt_log: WebhookAttempt[];
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewWebhookDelivery {
  id: string;
  endpointId: string;
  organizationId: string;
  eventType: string;
  threadId: string | null;
  sequence: number | null;
  body: string;
}

/**
 * A delivery claimed for one attempt, with what sending it needs (the previous secret's columns only while its overlap
 * lasts).
 */
export interface ClaimedDelivery extends SealedSecretColumns {
  id: string;
  organization_id: string;
  body: string;
  attempts: number;
  event_type: string;
  endpoint_id: string;
  project_id: string;
  url: string;
  enabled: boolean;
}

const COLUMNS = `id, endpoint_id, event_type, thread_id, sequence, body, status, attempts, attempt_log, last_status_code, last_error,
  last_latency_ms, next_attempt_at, delivered_at, created_at, updated_at`;

/** The `webhook_deliveries` table (the outbox and the delivery log). */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly sql: SqlService) {}

  /** Deletes every delivery of these threads, pending ones included (their bodies hold the turns); returns how many. */
  async deleteForThreads(threadIds: string[]): Promise<number> {
    if (threadIds.length === 0) return 0;
    const rows = await this.sql.rows<{ n: string }>(
      `WITH deleted AS (DELETE FROM webhook_deliveries WHERE thread_id = ANY($1::char(24)[]) RETURNING 1) SELECT count(*) AS n FROM deleted`,
      [threadIds],
      'webhook_deliveries_delete_for_threads',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Writes the deliveries of one message (in the caller's transaction), due now. */
  async insert(deliveries: NewWebhookDelivery[]): Promise<void> {
    await this.sql.rows(
      `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event_type, thread_id, sequence, body, next_attempt_at)
       SELECT id, endpoint_id, organization_id, event_type, thread_id, sequence, body, now()
         FROM unnest($1::char(24)[], $2::char(24)[], $3::char(24)[], $4::varchar[], $5::char(24)[], $6::bigint[], $7::text[])
           AS d (id, endpoint_id, organization_id, event_type, thread_id, sequence, body)`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.organizationId),
        deliveries.map((d) => d.eventType),
        deliveries.map((d) => d.threadId),
        deliveries.map((d) => d.sequence),
        deliveries.map((d) => d.body),
      ],
      'webhooks_insert_deliveries',
    );
  }

  /**
   * Takes the next due delivery for `leaseMs`, fairly between organizations: of the organizations with a due delivery
   * no worker holds and fewer than `perOrganization` attempts in flight (rows held, across every worker), the one with
   * the fewest in flight goes first, its oldest due delivery first (so organizations with due deliveries take turns).
   * The organizations are found by a skip scan of `ix_webhook_deliveries_org_due`, so the cost grows with the number of
   * organizations with due deliveries, not with the backlog. `raced` says another worker took the chosen delivery in
   * the meantime (try again); neither means nothing may be taken now. Two workers claiming at the same instant may each
   * see the same count, so an organization can briefly exceed its cap by one per such worker.
   */
  async claimNext(perOrganization: number, leaseMs: number): Promise<{ delivery?: ClaimedDelivery; raced: boolean }> {
    const row = await this.sql.one<ClaimedDelivery & { found: string }>(
      `WITH RECURSIVE due_organizations AS (
         (SELECT organization_id FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY organization_id LIMIT 1)
         UNION ALL
         SELECT (SELECT d.organization_id FROM webhook_deliveries d
                  WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.organization_id > o.organization_id
                  ORDER BY d.organization_id LIMIT 1)
           FROM due_organizations o WHERE o.organization_id IS NOT NULL
       ), candidates AS (
         SELECT o.organization_id,
                (SELECT count(*) FROM webhook_deliveries f
                  WHERE f.organization_id = o.organization_id AND f.locked_until IS NOT NULL AND f.locked_until >= now()
                    AND f.status = 'pending') AS in_flight
           FROM due_organizations o WHERE o.organization_id IS NOT NULL
       ), next AS (
         SELECT d.id FROM candidates c
          CROSS JOIN LATERAL (
            SELECT id, next_attempt_at FROM webhook_deliveries d
             WHERE d.organization_id = c.organization_id AND d.status = 'pending' AND d.next_attempt_at <= now()
               AND (d.locked_until IS NULL OR d.locked_until < now())
             ORDER BY d.next_attempt_at LIMIT 1) d
          WHERE c.in_flight < $1
          ORDER BY c.in_flight, d.next_attempt_at LIMIT 1
       ), claimed AS (
         UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => $2::int / 1000.0)
           FROM next, webhook_endpoints e
          WHERE d.id = next.id AND e.id = d.endpoint_id AND (d.locked_until IS NULL OR d.locked_until < now())
          RETURNING d.id, d.organization_id, d.body, d.attempts, d.event_type, e.id AS endpoint_id, e.project_id, e.url, e.enabled,
                    e.secret_key_id, e.secret_sealed,
                    CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_key_id END AS previous_secret_key_id,
                    CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_sealed END AS previous_secret_sealed
       )
       SELECT claimed.*, (SELECT count(*) FROM next) AS found FROM (SELECT 1) AS one LEFT JOIN claimed ON true`,
      [perOrganization, leaseMs],
      'webhooks_claim_next_delivery',
    );
    if (row?.id) {
      const { found: _found, ...delivery } = row;
      return { delivery, raced: false };
    }
    return { raced: Number(row?.found ?? 0) > 0 };
  }

  /** Records the attempt just made and what follows: delivered, failed for good, or pending until `nextAttemptAt`. */
  async recordAttempt(
    id: string,
    attempt: WebhookAttempt,
    outcome: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.sql.rows(
      `UPDATE webhook_deliveries
          SET attempts = attempts + 1,
              attempt_log = (CASE WHEN jsonb_array_length(attempt_log) >= ${ATTEMPT_LOG_LIMIT} THEN attempt_log - 0 ELSE attempt_log END)
                            || jsonb_build_array($2::jsonb),
              last_status_code = $3, last_error = $4, last_latency_ms = $5, status = $6::varchar, next_attempt_at = $7, locked_until = NULL,
              delivered_at = CASE WHEN $6::varchar = 'delivered' THEN now() ELSE delivered_at END, updated_at = now()
        WHERE id = $1`,
      [
        id,
        JSON.stringify(attempt),
        attempt.status_code,
        attempt.error?.slice(0, 500) ?? null,
        attempt.latency_ms,
        outcome.status,
        outcome.nextAttemptAt,
      ],
      'webhooks_record_attempt',
    );
  }

  page<T>(endpointId: string, query: PageQuery, request: PageRequest, toItem: (row: WebhookDeliveryRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<WebhookDeliveryRow & Record<string, unknown>, T>(
      this.sql,
      { select: `SELECT ${COLUMNS} FROM webhook_deliveries d`, where: [`d.endpoint_id = ${params.add(endpointId)}`], params },
      query,
      byCreatedAt('d', 'desc'),
      request,
      toItem,
    );
  }

  /** Makes the delivery due again now (whatever its state); returns it with the attempts made so far. */
  redeliver(endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return this.sql.one<WebhookDeliveryRow>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL, updated_at = now()
        WHERE id = $1 AND endpoint_id = $2 RETURNING ${COLUMNS}`,
      [id, endpointId],
    );
  }

  /** Pending deliveries due for more than `staleMs` that no worker holds: their job was lost. */
  stale(staleMs: number, limit: number): Promise<Array<{ id: string; attempts: number }>> {
    return this.sql.rows(
      `SELECT id, attempts FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::int / 1000.0)
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT $2`,
      [staleMs, limit],
      'webhooks_stale_deliveries',
    );
  }
}
