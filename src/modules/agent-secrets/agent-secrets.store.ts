import { Injectable, Logger } from '@nestjs/common';
import { EncryptionKeys, type Sealed } from '../../common/crypto/encryption-keys.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import type { AgentsDeleted } from '../../common/bus/event-map.js';
import { fillSecretReferences, secretReferencesOf } from '../bundles/secret-references.js';
import { AgentSecretsRepository } from './agent-secrets.repository.js';

/** What seals agent secrets: the key-encryption keys are derived for this use only. */
const PURPOSE = 'agent-secret';

/** The additional data that ties a sealed value to its agent and name. */
const aad = (agentId: string, name: string): string => `agent_secrets:${agentId}:${name}`;

/**
 * Headers with their secret references filled (and the values used, for the caller to redact them from anything it
 * shows), or why they cannot be filled (never a value).
 */
export type FilledHeaders = { ok: true; headers: Record<string, string>; secrets: string[] } | { ok: false; message: string };

/**
 * Agent secrets at rest and at call time (docs/security.md, "Agent secrets"): values are sealed with `EncryptionKeys`
 * (envelope encryption under ENCRYPTION_KEYS or the JWT_SECRET-derived key, rotatable) and opened only to fill a
 * call's headers. Nothing here logs or returns a value in an error.
 */
@Injectable()
export class AgentSecretsStore {
  private readonly logger = new Logger(AgentSecretsStore.name);

  constructor(
    private readonly keys: EncryptionKeys,
    private readonly secrets: AgentSecretsRepository,
  ) {}

  seal(agentId: string, name: string, value: string): Sealed {
    return this.keys.seal(PURPOSE, value, aad(agentId, name));
  }

  /** The names among `names` the agent has no secret for, in the given order. */
  async missing(agentId: string, names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const existing = await this.secrets.existing(agentId, names);
    return names.filter((name) => !existing.has(name));
  }

  /**
   * The headers with every `{{secret:NAME}}` replaced by the agent's value. A name the agent has no secret for (deleted
   * after the push), or one no configured key opens, makes the call impossible: the message says which, never a value.
   */
  async fillHeaders(agentId: string | undefined, headers: Record<string, string>): Promise<FilledHeaders> {
    const names = [...new Set(Object.values(headers).flatMap((value) => secretReferencesOf(value).names))];
    if (names.length === 0) return { ok: true, headers, secrets: [] };
    if (!agentId) return { ok: false, message: 'headers name agent secrets, but this call has no agent' };
    const values = new Map<string, string>();
    for (const row of await this.secrets.sealed(agentId, names)) {
      const value = this.keys.open(PURPOSE, { keyId: row.key_id, data: row.value_sealed }, aad(row.agent_id, row.name));
      if (value === undefined) {
        this.logger.error(
          { agentId, secret: row.name },
          'an agent secret cannot be decrypted with the configured keys (ENCRYPTION_KEYS, JWT_SECRET)',
        );
        return { ok: false, message: `the agent secret ${row.name} cannot be decrypted with the configured keys` };
      }
      values.set(row.name, value);
    }
    const absent = names.find((name) => !values.has(name));
    if (absent) return { ok: false, message: `the agent has no secret ${absent} (PUT /management/v1/agents/{agentId}/secrets/${absent})` };
    const filled: Record<string, string> = {};
    for (const [header, value] of Object.entries(headers)) filled[header] = fillSecretReferences(value, (name) => values.get(name)!);
    return { ok: true, headers: filled, secrets: [...values.values()] };
  }

  /** Agent deletion (in its transaction): the agents' secrets go with them. */
  @OnBusEvent('agents.deleted', { phase: 'transaction' })
  async agentsDeleted({ agentIds }: AgentsDeleted): Promise<void> {
    await this.secrets.deleteAllOfAgents(agentIds);
  }

  /**
   * Key rotation (`npm run cli -- secrets:rewrap`): re-seals every value not sealed by the current key (only their data
   * keys change), in batches; returns how many were re-sealed and how many no configured key opens (left as they are).
   */
  async rewrapAll(batchSize = 500): Promise<{ rewrapped: number; unreadable: number }> {
    let rewrapped = 0;
    let unreadable = 0;
    let after = '';
    for (;;) {
      const rows = await this.secrets.sealedNotUnder(this.keys.currentId, after, batchSize);
      if (rows.length === 0) return { rewrapped, unreadable };
      for (const row of rows) {
        after = row.id;
        const sealed = this.keys.rewrap(PURPOSE, { keyId: row.key_id, data: row.value_sealed }, aad(row.agent_id, row.name));
        if (!sealed) {
          unreadable += 1;
          this.logger.error(
            { agentId: row.agent_id, secret: row.name },
            'an agent secret cannot be decrypted with the configured keys; left as it is',
          );
          continue;
        }
        if (await this.secrets.replaceSealed(row, sealed)) rewrapped += 1;
      }
    }
  }
}
