import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';

export interface StoredKey {
  id: string;
  organization_id: string;
  agent_id: string | null;
  key_hash: string;
  revoked: boolean;
}

export interface StoredPublishableKey extends StoredKey {
  agent_id: string;
  allowed_origins: string[];
  allowed_ip_ranges: string[];
}

export interface StoredUser {
  id: string;
  organization_id: string;
  password_hash: string;
}

/**
 * Credential reads on the hot path, as prepared SQL. A key is found by the hash of the whole secret;
 * keys of deleted agents (also those of a deleted project) are gone with the agent, so they can no longer authenticate.
 */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly sql: SqlService) {}

  findOrganizationKey(keyHash: string): Promise<StoredKey | undefined> {
    return this.sql.one<StoredKey>(
      `SELECT id, organization_id, NULL AS agent_id, key_hash, revoked_at IS NOT NULL AS revoked
         FROM organization_api_keys WHERE key_hash = $1`,
      [keyHash],
      'auth_find_org_key',
    );
  }

  findAgentKey(keyHash: string): Promise<StoredKey | undefined> {
    return this.sql.one<StoredKey>(
      `SELECT k.id, k.organization_id, k.agent_id, k.key_hash, k.revoked_at IS NOT NULL AS revoked
         FROM agent_api_keys k WHERE k.key_hash = $1`,
      [keyHash],
      'auth_find_agent_key',
    );
  }

  findPublishableKeyByHash(keyHash: string): Promise<StoredPublishableKey | undefined> {
    return this.sql.one<StoredPublishableKey>(
      `SELECT id, organization_id, agent_id, key_hash, revoked_at IS NOT NULL AS revoked, allowed_origins, allowed_ip_ranges
         FROM publishable_keys WHERE key_hash = $1`,
      [keyHash],
      'auth_find_pk_by_hash',
    );
  }

  findPublishableKeyById(id: string): Promise<StoredPublishableKey | undefined> {
    return this.sql.one<StoredPublishableKey>(
      `SELECT id, organization_id, agent_id, key_hash, revoked_at IS NOT NULL AS revoked, allowed_origins, allowed_ip_ranges
         FROM publishable_keys WHERE id = $1`,
      [id],
      'auth_find_pk_by_id',
    );
  }

  findUserByEmail(email: string): Promise<StoredUser | undefined> {
    return this.sql.one<StoredUser>(
      `SELECT id, organization_id, password_hash FROM users WHERE lower(email) = lower($1)`,
      [email],
      'auth_find_user_by_email',
    );
  }

  findUser(id: string): Promise<Pick<StoredUser, 'id' | 'organization_id'> | undefined> {
    return this.sql.one(`SELECT id, organization_id FROM users WHERE id = $1`, [id], 'auth_find_user');
  }

  /** NOTIFY on `channel`: delivered to every listening instance when, and only if, the current transaction commits. */
  async announce(channel: string, payload: string): Promise<void> {
    await this.sql.rows(`SELECT pg_notify($1, $2)`, [channel, payload]);
  }

  /** The agent if it can still act: not deleted, in a project that is not deleted (as management sees it). */
  findLiveAgent(agentId: string): Promise<{ organization_id: string } | undefined> {
    return this.sql.one(
      `SELECT a.organization_id FROM agents a JOIN projects p ON p.id = a.project_id
        WHERE a.id = $1 AND a.deleted_at IS NULL AND p.deleted_at IS NULL`,
      [agentId],
      'auth_find_live_agent',
    );
  }
}
