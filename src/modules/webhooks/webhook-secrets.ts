import { Injectable, Logger } from '@nestjs/common';
import { EncryptionKeys, type Sealed } from '../../common/crypto/encryption-keys.js';
import { WebhookEndpointsRepository, type SealedSecretColumns } from './webhook-endpoints.repository.js';

/** What seals an endpoint's secrets: the key-encryption keys are derived for this use only. */
const PURPOSE = 'webhook-signing-secret';

/** The additional data that ties a sealed secret to its endpoint. */
const aad = (endpointId: string): string => `webhook_endpoints:${endpointId}`;

/** A stored secret that no configured key opens (a key dropped too early, another JWT_SECRET): never its value. */
export class WebhookSecretUnreadableError extends Error {
  constructor(endpointId: string) {
    super(`the signing secret of webhook ${endpointId} cannot be decrypted with the configured keys (ENCRYPTION_KEYS, JWT_SECRET)`);
  }
}

/**
 * Webhook signing secrets at rest (docs/webhooks.md, "Secret storage"): sealed with `EncryptionKeys` (a data key per
 * secret, sealed by the configured key whose id is stored beside it), tied to the endpoint's id so a sealed secret
 * cannot be moved to another endpoint. Current and previous secret of a row share that tie, so a rotation moves the
 * current one to the previous columns as it is.
 */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly keys: EncryptionKeys) {}

  /** The id of the key new secrets are sealed with. */
  get currentKeyId(): string {
    return this.keys.currentId;
  }

  seal(endpointId: string, secret: string): Sealed {
    return this.keys.seal(PURPOSE, secret, aad(endpointId));
  }

  /** The endpoint's current secret; WebhookSecretUnreadableError when no configured key opens it. */
  current(endpointId: string, row: SealedSecretColumns): string {
    return this.open(endpointId, { keyId: row.secret_key_id, data: row.secret_sealed });
  }

  /** The endpoint's previous secret, when its row holds one (the caller decides whether its overlap still runs). */
  previous(endpointId: string, row: SealedSecretColumns): string | null {
    if (row.previous_secret_key_id === null || row.previous_secret_sealed === null) return null;
    return this.open(endpointId, { keyId: row.previous_secret_key_id, data: row.previous_secret_sealed });
  }

  /** The secret sealed by the current key (its data key re-sealed); undefined when no configured key opens it. */
  rewrap(endpointId: string, sealed: Sealed): Sealed | undefined {
    return this.keys.rewrap(PURPOSE, sealed, aad(endpointId));
  }

  private open(endpointId: string, sealed: Sealed): string {
    const secret = this.keys.open(PURPOSE, sealed, aad(endpointId));
    if (secret === undefined) throw new WebhookSecretUnreadableError(endpointId);
    return secret;
  }
}

/** Key rotation: re-seals the stored secrets with the current key (`npm run cli -- secrets:rewrap`). */
@Injectable()
export class WebhookSecretsRewrap {
  private readonly logger = new Logger(WebhookSecretsRewrap.name);

  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  /**
   * Re-seals every stored secret not sealed by the current key with the current key (only their data keys change),
   * in batches; returns how many endpoints were re-sealed and how many no configured key opens (left as they are).
   */
  async rewrapAll(batchSize = 500): Promise<{ rewrapped: number; unreadable: number }> {
    let rewrapped = 0;
    let unreadable = 0;
    let after = '';
    for (;;) {
      const rows = await this.endpoints.sealedNotUnder(this.secrets.currentKeyId, after, batchSize);
      if (rows.length === 0) return { rewrapped, unreadable };
      for (const row of rows) {
        after = row.id;
        const current = this.secrets.rewrap(row.id, { keyId: row.secret_key_id, data: row.secret_sealed });
        const previous =
          row.previous_secret_key_id === null || row.previous_secret_sealed === null
            ? null
            : this.secrets.rewrap(row.id, { keyId: row.previous_secret_key_id, data: row.previous_secret_sealed });
        if (!current || previous === undefined) {
          unreadable += 1;
          this.logger.error({ webhookId: row.id }, 'a webhook signing secret cannot be decrypted with the configured keys; left as it is');
          continue;
        }
        if (await this.endpoints.replaceSealed(row, current, previous)) rewrapped += 1;
      }
    }
  }
}
