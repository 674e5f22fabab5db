import { Injectable, Logger } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import type { Sealed } from '../../common/crypto/encryption-keys.js';
import { AppConfig } from '../../config/app-config.js';
import { SqlService } from '../../database/sql.service.js';

/** An endpoint's signing secrets as its row holds them: sealed (webhook-secrets.ts), with the id of the sealing key. */
export interface SealedSecretColumns {
  secret_key_id: string;
  secret_sealed: Buffer;
  previous_secret_key_id: string | null;
  previous_secret_sealed: Buffer | null;
}

/** A `webhook_endpoints` row. */
export interface WebhookEndpointRow extends SealedSecretColumns {
  id: string;
  organization_id: string;
  project_id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  consecutive_failures: number;
  created_at: Date;
  updated_at: Date;
}

export interface NewWebhookEndpoint {
  id: string;
  organizationId: string;
  projectId: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  secret: Sealed;
}

export interface WebhookEndpointChanges {
  url?: string;
  description?: string;
  events?: string[];
  enabled?: boolean;
}

/** An organization's subscribed event types at a version (`version` is a bigint, as text). */
export interface SubscriptionSnapshot {
  organization_id: string;
  version: string;
  events: string[];
}

/** Where one message goes: the subscribed endpoints and, for a message about a thread, its next sequence number. */
export interface WebhookTargets {
  endpointIds: string[];
  projectId: string | null;
  sequence: number | null;
}

const COLUMNS = `id, organization_id, project_id, url, description, events, enabled, disabled_reason, secret_key_id, secret_sealed,
  previous_secret_key_id, previous_secret_sealed, previous_secret_expires_at, consecutive_failures, created_at, updated_at`;

/** The `webhook_endpoints` and `webhook_thread_sequences` tables. */
@Injectable()
export class WebhookEndpointsRepository {
  private readonly logger = new Logger(WebhookEndpointsRepository.name);

  constructor(
    private readonly sql: SqlService,
    private readonly config: AppConfig,
  ) {}

  /**
   * How many endpoints the organization and the project have, after taking the organization's endpoint-creation lock
   * for the transaction (two creations at once cannot both pass the cap). Call in the creation's transaction.
   */
  async countForCreation(organizationId: string, projectId: string): Promise<{ organization: number; project: number }> {
    await this.sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1, 0))`, [organizationId]);
    const row = await this.sql.one<{ organization: number; project: number }>(
      `SELECT count(*)::int AS organization, (count(*) FILTER (WHERE project_id = $2))::int AS project
         FROM webhook_endpoints WHERE organization_id = $1`,
      [organizationId, projectId],
    );
    return row!;
  }

  async insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    const row = await this.sql.one<WebhookEndpointRow>(
      `INSERT INTO webhook_endpoints (id, organization_id, project_id, url, description, events, enabled, secret_key_id, secret_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        endpoint.id,
        endpoint.organizationId,
        endpoint.projectId,
        endpoint.url,
        endpoint.description,
        endpoint.events,
        endpoint.enabled,
        endpoint.secret.keyId,
        endpoint.secret.data,
      ],
    );
    return row!;
  }

  find(organizationId: string, projectId: string, id: string, lock = false): Promise<WebhookEndpointRow | undefined> {
    return this.sql.one<WebhookEndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND project_id = $2 AND organization_id = $3${lock ? ' FOR UPDATE' : ''}`,
      [id, projectId, organizationId],
    );
  }

  page<T>(
    organizationId: string,
    projectId: string,
    query: PageQuery,
    request: PageRequest,
    toItem: (row: WebhookEndpointRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<WebhookEndpointRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT ${COLUMNS} FROM webhook_endpoints w`,
        where: [`w.project_id = ${params.add(projectId)}`, `w.organization_id = ${params.add(organizationId)}`],
        params,
      },
      query,
      byCreatedAt('w', 'desc'),
      request,
      toItem,
    );
  }

  /** Applies the changes; enabling clears the failure count and the reason it was disabled. */
  update(organizationId: string, projectId: string, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointRow | undefined> {
    const params = new SqlParams();
    const sets = ['updated_at = now()'];
    if (changes.url !== undefined) sets.push(`url = ${params.add(changes.url)}`);
    if (changes.description !== undefined) sets.push(`description = ${params.add(changes.description)}`);
    if (changes.events !== undefined) sets.push(`events = ${params.add(changes.events)}`);
    if (changes.enabled !== undefined) {
      sets.push(`enabled = ${params.add(changes.enabled)}`);
      if (changes.enabled) sets.push('consecutive_failures = 0', 'disabled_reason = NULL');
      else sets.push(`disabled_reason = 'disabled by request'`);
    }
    return this.sql.one<WebhookEndpointRow>(
      `UPDATE webhook_endpoints SET ${sets.join(', ')}
        WHERE id = ${params.add(id)} AND project_id = ${params.add(projectId)} AND organization_id = ${params.add(organizationId)}
        RETURNING ${COLUMNS}`,
      params.values,
    );
  }

  /** The new secret signs from now on; the current one keeps signing beside it for `overlapSeconds` (none when 0). */
  rotate(
    organizationId: string,
    projectId: string,
    id: string,
    secret: Sealed,
    overlapSeconds: number,
  ): Promise<WebhookEndpointRow | undefined> {
    return this.sql.one<WebhookEndpointRow>(
      `UPDATE webhook_endpoints
          SET previous_secret_key_id = CASE WHEN $6::int > 0 THEN secret_key_id END,
              previous_secret_sealed = CASE WHEN $6::int > 0 THEN secret_sealed END,
              previous_secret_expires_at = CASE WHEN $6::int > 0 THEN now() + make_interval(secs => $6::int) END,
              secret_key_id = $4, secret_sealed = $5, updated_at = now()
        WHERE id = $1 AND project_id = $2 AND organization_id = $3
        RETURNING ${COLUMNS}`,
      [id, projectId, organizationId, secret.keyId, secret.data, overlapSeconds],
    );
  }

  /** Endpoints (after `afterId`, in id order) with a secret sealed by another key than `keyId`: what a key rotation re-seals. */
  sealedNotUnder(keyId: string, afterId: string, limit: number): Promise<Array<SealedSecretColumns & { id: string }>> {
    return this.sql.rows(
      `SELECT id, secret_key_id, secret_sealed, previous_secret_key_id, previous_secret_sealed FROM webhook_endpoints
        WHERE (secret_key_id <> $1 OR previous_secret_key_id <> $1) AND id > $2
        ORDER BY id LIMIT $3`,
      [keyId, afterId, limit],
    );
  }

  /**
   * Stores the re-sealed secrets of an endpoint, unless they changed since `was` was read (a rotation meanwhile wins);
   * returns whether it stored them.
   */
  async replaceSealed(was: SealedSecretColumns & { id: string }, current: Sealed, previous: Sealed | null): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE webhook_endpoints
          SET secret_key_id = $2, secret_sealed = $3, previous_secret_key_id = $4, previous_secret_sealed = $5
        WHERE id = $1 AND secret_sealed = $6 AND previous_secret_sealed IS NOT DISTINCT FROM $7
        RETURNING id`,
      [was.id, current.keyId, current.data, previous?.keyId ?? null, previous?.data ?? null, was.secret_sealed, was.previous_secret_sealed],
    );
    return rows.length > 0;
  }

  async delete(organizationId: string, projectId: string, id: string): Promise<boolean> {
    const rows = await this.sql.rows(
      `DELETE FROM webhook_endpoints WHERE id = $1 AND project_id = $2 AND organization_id = $3 RETURNING id`,
      [id, projectId, organizationId],
    );
    return rows.length > 0;
  }

  /**
   * Each organization's subscriptions at their current version: the event types its enabled endpoints subscribe to
   * (one organization's, or every one's). One statement: the types and the version come from the same snapshot.
   */
  subscriptions(organizationId: string | null): Promise<SubscriptionSnapshot[]> {
    return this.sql.rows(
      `SELECT v.organization_id, v.version,
              ARRAY(SELECT DISTINCT event FROM webhook_endpoints e, unnest(e.events) AS event
                     WHERE e.organization_id = v.organization_id AND e.enabled) AS events
         FROM webhook_subscription_versions v
        WHERE $1::text IS NULL OR v.organization_id = $1`,
      [organizationId],
      'webhooks_subscriptions',
    );
  }

  /**
   * Records that the organization's subscriptions changed, in the transaction of the change: returns their new
   * version. Concurrent changes of one organization take their versions in commit order (the row lock).
   */
  async bumpSubscriptionVersion(organizationId: string): Promise<number> {
    const row = await this.sql.one<{ version: string }>(
      `INSERT INTO webhook_subscription_versions (organization_id, version) VALUES ($1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET version = webhook_subscription_versions.version + 1
       RETURNING version`,
      [organizationId],
      'webhooks_bump_subscription_version',
    );
    return Number(row!.version);
  }

  /**
   * The enabled endpoints of the message's project subscribed to `type` (the project given, or the agent's), at most
   * WEBHOOKS_MAX_DELIVERIES_PER_CHANGE of them (the oldest; the cut is logged), and, when there is one and a thread,
   * the thread's next sequence number — in the caller's transaction.
   */
  async targets(message: {
    organizationId: string;
    projectId: string | null;
    agentId: string | null;
    type: string;
    threadId: string | null;
  }): Promise<WebhookTargets> {
    const cap = this.config.webhooks.maxDeliveriesPerChange;
    const row = await this.sql.one<{ endpoint_ids: string[] | null; project_id: string | null; sequence: string | null }>(
      `WITH targets AS (
         SELECT id, project_id, created_at FROM webhook_endpoints
          WHERE organization_id = $1 AND enabled AND $2 = ANY (events)
            AND project_id = COALESCE($3::char(24), (SELECT project_id FROM agents WHERE id = $4::char(24)))
          ORDER BY created_at, id
          LIMIT $6::int + 1
       ), sequence AS (
         INSERT INTO webhook_thread_sequences (thread_id, last_sequence)
         SELECT $5::char(24), 1 WHERE $5::char(24) IS NOT NULL AND EXISTS (SELECT 1 FROM targets)
         ON CONFLICT (thread_id) DO UPDATE SET last_sequence = webhook_thread_sequences.last_sequence + 1
         RETURNING last_sequence
       )
       SELECT (SELECT array_agg(id ORDER BY created_at, id) FROM targets) AS endpoint_ids, (SELECT min(project_id) FROM targets) AS project_id,
              (SELECT last_sequence FROM sequence) AS sequence`,
      [message.organizationId, message.type, message.projectId, message.agentId, message.threadId, cap],
      'webhooks_targets',
    );
    const endpointIds = row?.endpoint_ids ?? [];
    if (endpointIds.length > cap) {
      this.logger.warn(
        { organizationId: message.organizationId, type: message.type, cap },
        'a message has more subscribed endpoints than WEBHOOKS_MAX_DELIVERIES_PER_CHANGE: the newest get nothing for it',
      );
    }
    return {
      endpointIds: endpointIds.slice(0, cap),
      projectId: row?.project_id ?? null,
      sequence: row?.sequence === null || row?.sequence === undefined ? null : Number(row.sequence),
    };
  }

  /** A delivered attempt: the endpoint's run of failures ends. */
  async recordSuccess(id: string): Promise<void> {
    await this.sql.rows(`UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures > 0`, [id]);
  }

  /**
   * A failed attempt; the endpoint is disabled when it makes `disableAfter` in a row. Returns the endpoint when this
   * call disabled it.
   */
  async recordFailure(id: string, disableAfter: number): Promise<WebhookEndpointRow | undefined> {
    const row = await this.sql.one<WebhookEndpointRow>(
      `UPDATE webhook_endpoints
          SET consecutive_failures = consecutive_failures + 1,
              enabled = consecutive_failures + 1 < $2,
              disabled_reason = CASE WHEN consecutive_failures + 1 >= $2
                                     THEN 'disabled after ' || (consecutive_failures + 1) || ' failed attempts in a row' END,
              updated_at = now()
        WHERE id = $1 AND enabled
        RETURNING ${COLUMNS}`,
      [id, disableAfter],
    );
    return row && !row.enabled ? row : undefined;
  }

  /** Disables the endpoint (its receiver answered 410 Gone); returns it when this call disabled it. */
  disable(id: string, reason: string): Promise<WebhookEndpointRow | undefined> {
    return this.sql.one<WebhookEndpointRow>(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1 AND enabled RETURNING ${COLUMNS}`,
      [id, reason],
    );
  }
}
