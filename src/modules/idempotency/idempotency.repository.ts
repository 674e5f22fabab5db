import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';

export type StoredResponseKind = 'json' | 'sse';

export interface NewClaim {
  keyHash: Buffer;
  organizationId: string;
  fingerprint: Buffer;
  leaseToken: string;
  leaseSeconds: number;
  /** Used when the claim creates the row (or replaces an expired one); a takeover keeps the row's. */
  resourceId: string;
  ttlSeconds: number;
}

/** The outcome of a claim: this request runs (claimed), or the row another request holds or completed. */
export type ClaimResult =
  | { claimed: true; resourceId: string }
  | {
      claimed: false;
      resourceId: string;
      state: 'running' | 'completed';
      fingerprint: Buffer;
      responseStatus: number | null;
      responseKind: StoredResponseKind | null;
      responseBody: Buffer | null;
      leaseSecondsLeft: number;
    };

interface ClaimRow {
  claimed: boolean;
  resource_id: string;
  state: 'running' | 'completed' | null;
  fingerprint: Buffer | null;
  response_status: number | null;
  response_kind: StoredResponseKind | null;
  response_body: Buffer | null;
  lease_seconds_left: number | null;
}

/**
 * `idempotency_keys` (owner: this module). The claim is one statement (INSERT … ON CONFLICT): of concurrent
 * requests with one key, on any number of instances, exactly one gets the row; the others read it in the same
 * statement. The conflict arm takes the row over only when it has expired (past its TTL) or its running request's
 * lease has expired (that request crashed) and the repeat is the same request.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: SqlService) {}

  async claim(claim: NewClaim): Promise<ClaimResult> {
    // The read arm sees the statement's snapshot: a row committed by a concurrent claim after it began is invisible
    // there although the INSERT arm conflicted with it. Then nothing comes back, and the next statement sees it.
    for (let attempt = 1; ; attempt += 1) {
      const row = await this.sql.one<ClaimRow>(
        `WITH claimed AS (
           INSERT INTO idempotency_keys AS k
                  (key_hash, organization_id, fingerprint, state, lease_token, lease_expires_at, resource_id, created_at, expires_at)
           VALUES ($1, $2, $3, 'running', $4, now() + $5 * interval '1 second', $6, now(), now() + $7 * interval '1 second')
           ON CONFLICT (key_hash) DO UPDATE
              SET fingerprint = EXCLUDED.fingerprint, state = 'running', lease_token = EXCLUDED.lease_token,
                  lease_expires_at = EXCLUDED.lease_expires_at,
                  resource_id = CASE WHEN k.expires_at <= now() THEN EXCLUDED.resource_id ELSE k.resource_id END,
                  created_at = CASE WHEN k.expires_at <= now() THEN now() ELSE k.created_at END,
                  expires_at = CASE WHEN k.expires_at <= now() THEN EXCLUDED.expires_at ELSE k.expires_at END,
                  response_status = NULL, response_kind = NULL, response_body = NULL
            WHERE k.expires_at <= now()
               OR (k.state = 'running' AND k.lease_expires_at <= now() AND k.fingerprint = EXCLUDED.fingerprint)
           RETURNING k.resource_id
         )
         SELECT true AS claimed, resource_id, NULL AS state, NULL::bytea AS fingerprint, NULL::int AS response_status,
                NULL AS response_kind, NULL::bytea AS response_body, NULL::float8 AS lease_seconds_left
           FROM claimed
         UNION ALL
         SELECT false, k.resource_id, k.state, k.fingerprint, k.response_status, k.response_kind, k.response_body,
                extract(epoch FROM k.lease_expires_at - now())::float8
           FROM idempotency_keys k
          WHERE k.key_hash = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`,
        [claim.keyHash, claim.organizationId, claim.fingerprint, claim.leaseToken, claim.leaseSeconds, claim.resourceId, claim.ttlSeconds],
        'idempotency_claim',
      );
      if (row?.claimed) return { claimed: true, resourceId: row.resource_id };
      if (row) {
        return {
          claimed: false,
          resourceId: row.resource_id,
          state: row.state!,
          fingerprint: row.fingerprint!,
          responseStatus: row.response_status,
          responseKind: row.response_kind,
          responseBody: row.response_body,
          leaseSecondsLeft: row.lease_seconds_left ?? 0,
        };
      }
      if (attempt >= 5) throw new Error('idempotency claim found neither a row nor a claim five times');
    }
  }

  /** Keeps a long-running request's lease alive; false when the lease was lost (taken over, or the key released). */
  async renew(keyHash: Buffer, leaseToken: string, leaseSeconds: number): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE idempotency_keys SET lease_expires_at = now() + $3 * interval '1 second'
        WHERE key_hash = $1 AND lease_token = $2 AND state = 'running'
       RETURNING 1`,
      [keyHash, leaseToken, leaseSeconds],
      'idempotency_renew',
    );
    return rows.length > 0;
  }

  /** Stores the first response; a no-op when this request no longer holds the lease. */
  async complete(keyHash: Buffer, leaseToken: string, status: number, kind: StoredResponseKind, body: Buffer): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE idempotency_keys
          SET state = 'completed', response_status = $3, response_kind = $4, response_body = $5, lease_expires_at = now()
        WHERE key_hash = $1 AND lease_token = $2 AND state = 'running'
       RETURNING 1`,
      [keyHash, leaseToken, status, kind, body],
      'idempotency_complete',
    );
    return rows.length > 0;
  }

  /** Frees the key of a request that failed, so that the client may try again with it. */
  async release(keyHash: Buffer, leaseToken: string): Promise<void> {
    await this.sql.rows(
      `DELETE FROM idempotency_keys WHERE key_hash = $1 AND lease_token = $2 AND state = 'running'`,
      [keyHash, leaseToken],
      'idempotency_release',
    );
  }

  /** Deletes up to `limit` expired rows (those no request is running under); returns how many. */
  async deleteExpired(limit: number): Promise<number> {
    const rows = await this.sql.rows(
      `DELETE FROM idempotency_keys
        WHERE key_hash IN (SELECT key_hash FROM idempotency_keys
                            WHERE expires_at <= now() AND (state = 'completed' OR lease_expires_at <= now())
                            LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [limit],
      'idempotency_delete_expired',
    );
    return rows.length;
  }
}
