import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { newId } from '../../common/ids/new-id.js';
import { AppConfig } from '../../config/app-config.js';
import type { Principal } from '../auth/principal.js';
import { credentialScope, keyHash, requestFingerprint } from './fingerprint.js';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from './idempotency.errors.js';
import { IdempotencyRepository, type StoredResponseKind } from './idempotency.repository.js';
import { SealedBox } from '../../common/crypto/sealed-box.js';

/** The request an Idempotency-Key came with. */
export interface KeyedRequest {
  principal: Principal;
  key: string;
  method: string;
  /** The route's path template (`/messaging/v1/threads/:threadId/rerun`): part of the key's scope. */
  route: string;
  /** The path as sent, without the query: part of the fingerprint. */
  path: string;
  body: unknown;
}

/** This request holds the key: it runs, then `complete`s or `release`s. */
export interface IdempotencyTicket {
  readonly keyHash: Buffer;
  readonly leaseToken: string;
  /** The id reserved for what the request creates: the same on a takeover after a crash. */
  readonly resourceId: string;
  readonly stopRenewing: () => void;
}

export type IdempotencyOutcome =
  { kind: 'run'; ticket: IdempotencyTicket } | { kind: 'replay'; status: number; responseKind: StoredResponseKind; body: string };

/** A repeat answered 409 may come back after this many seconds at least. */
const IN_PROGRESS_RETRY_AFTER_MAX = 5;

/**
 * Idempotency keys (docs/idempotency.md): claims a key for a request, or answers a repeat from the stored first
 * response; stores the first 2xx response (encrypted) or frees the key when the request failed.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);
  private readonly cipher: SealedBox;

  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly config: AppConfig,
  ) {
    // Replies live IDEMPOTENCY_TTL_SECONDS at most, so their key follows JWT_SECRET (no key ids, no rotation procedure).
    this.cipher = SealedBox.derive(config.auth.jwtSecret, 'idempotency-response-v1');
  }

  async begin(request: KeyedRequest): Promise<IdempotencyOutcome> {
    const hash = keyHash(credentialScope(request.principal), `${request.method} ${request.route}`, request.key);
    const fingerprint = requestFingerprint(request.method, request.path, request.body);
    const leaseToken = randomBytes(16).toString('hex');
    const { leaseSeconds, ttlSeconds } = this.config.idempotency;
    const result = await this.repository.claim({
      keyHash: hash,
      organizationId: request.principal.organizationId,
      fingerprint,
      leaseToken,
      leaseSeconds,
      resourceId: newId(),
      ttlSeconds,
    });
    if (result.claimed) {
      return {
        kind: 'run',
        ticket: { keyHash: hash, leaseToken, resourceId: result.resourceId, stopRenewing: this.renewWhileRunning(hash, leaseToken) },
      };
    }
    if (!result.fingerprint.equals(fingerprint)) throw new IdempotencyKeyReusedError();
    if (result.state === 'running') {
      throw new IdempotencyKeyInProgressError(Math.min(IN_PROGRESS_RETRY_AFTER_MAX, Math.max(1, Math.ceil(result.leaseSecondsLeft))));
    }
    const body = this.cipher.open(result.responseBody!, hash);
    // Sealed under another JWT_SECRET (instances must share it, as they do for tokens) or altered: not replayable.
    if (body === undefined) throw new Error('stored idempotent response cannot be decrypted (JWT_SECRET differs between instances?)');
    return { kind: 'replay', status: result.responseStatus!, responseKind: result.responseKind!, body };
  }

  /** Stores the first response. Failing to store it is logged: the work is done, its answer goes out anyway. */
  async complete(ticket: IdempotencyTicket, status: number, kind: StoredResponseKind, body: string): Promise<void> {
    ticket.stopRenewing();
    try {
      const stored = await this.repository.complete(
        ticket.keyHash,
        ticket.leaseToken,
        status,
        kind,
        this.cipher.seal(body, ticket.keyHash),
      );
      if (!stored) this.logger.warn('an idempotent request finished after its lease was lost; its response was not stored');
    } catch (error) {
      this.logger.warn(
        { err: error },
        'the response of an idempotent request could not be stored; the key frees itself when its lease expires',
      );
    }
  }

  /** The request failed: the key is free again (nothing is stored for a failure; see docs/idempotency.md). */
  async release(ticket: IdempotencyTicket): Promise<void> {
    ticket.stopRenewing();
    try {
      await this.repository.release(ticket.keyHash, ticket.leaseToken);
    } catch (error) {
      this.logger.warn({ err: error }, 'an idempotency key could not be released; it frees itself when its lease expires');
    }
  }

  /** Renews the lease every third of it while the request runs (a request shorter than that costs nothing). */
  private renewWhileRunning(hash: Buffer, leaseToken: string): () => void {
    const { leaseSeconds } = this.config.idempotency;
    const timer = setInterval(
      () => {
        this.repository.renew(hash, leaseToken, leaseSeconds).catch((error: unknown) => {
          this.logger.warn({ err: error }, 'an idempotency lease could not be renewed');
        });
      },
      (leaseSeconds * 1000) / 3,
    );
    timer.unref();
    return () => clearInterval(timer);
  }
}
