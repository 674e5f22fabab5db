import { Injectable } from '@nestjs/common';
import type { Sealed } from '../../common/crypto/encryption-keys.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { paginateSql } from '../../common/pagination/paginate-sql.js';
import type { KeysetSpec } from '../../common/pagination/keyset.js';
import { SqlService } from '../../database/sql.service.js';
import { SqlParams } from '../../database/sql-params.js';

/** An `agent_secrets` row without its sealed value: what listings show. */
export interface AgentSecretRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

/** A secret's sealed value, with the id of the key that sealed its data key. */
export interface SealedSecretRow {
  id: string;
  agent_id: string;
  name: string;
  key_id: string;
  value_sealed: Buffer;
}

const LIST_SPEC: KeysetSpec<AgentSecretRow> = {
  sortColumns: { name: 's.name', created_at: 's.created_at', updated_at: 's.updated_at' },
  idColumn: 's.id',
  sortValue: (row, sortBy) => (sortBy === 'name' ? row.name : (sortBy === 'created_at' ? row.created_at : row.updated_at).toISOString()),
  rowId: (row) => row.id,
  defaultSort: 'name',
  defaultOrder: 'asc',
};

/** The `agent_secrets` table: sealed values only, never a clear one. */
@Injectable()
export class AgentSecretsRepository {
  constructor(private readonly sql: SqlService) {}

  /** Stores the value under (agent, name): a new secret, or a new value for an existing one. Returns whether it was new. */
  async upsert(secret: { id: string; organizationId: string; agentId: string; name: string; sealed: Sealed }): Promise<boolean> {
    const row = await this.sql.one<{ created: boolean }>(
      `INSERT INTO agent_secrets (id, organization_id, agent_id, name, key_id, value_sealed) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (agent_id, name) DO UPDATE SET key_id = EXCLUDED.key_id, value_sealed = EXCLUDED.value_sealed, updated_at = now()
       RETURNING (xmax = 0) AS created`,
      [secret.id, secret.organizationId, secret.agentId, secret.name, secret.sealed.keyId, secret.sealed.data],
    );
    return row!.created;
  }

  page<T>(agentId: string, query: PageQuery, request: PageRequest, toItem: (row: AgentSecretRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<AgentSecretRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT s.id, s.name, s.created_at, s.updated_at FROM agent_secrets s`,
        where: [`s.agent_id = ${params.add(agentId)}`],
        params,
      },
      query,
      LIST_SPEC as KeysetSpec<AgentSecretRow & Record<string, unknown>>,
      request,
      toItem,
    );
  }

  async delete(agentId: string, name: string): Promise<boolean> {
    const rows = await this.sql.rows(`DELETE FROM agent_secrets WHERE agent_id = $1 AND name = $2 RETURNING id`, [agentId, name]);
    return rows.length > 0;
  }

  async deleteAllOfAgents(agentIds: string[]): Promise<void> {
    await this.sql.rows(`DELETE FROM agent_secrets WHERE agent_id = ANY($1)`, [agentIds]);
  }

  /** The names among `names` the agent has a secret for. */
  async existing(agentId: string, names: string[]): Promise<Set<string>> {
    const rows = await this.sql.rows<{ name: string }>(`SELECT name FROM agent_secrets WHERE agent_id = $1 AND name = ANY($2)`, [
      agentId,
      names,
    ]);
    return new Set(rows.map((r) => r.name));
  }

  /** The sealed values of the named secrets the agent has. */
  sealed(agentId: string, names: string[]): Promise<SealedSecretRow[]> {
    return this.sql.rows<SealedSecretRow>(
      `SELECT id, agent_id, name, key_id, value_sealed FROM agent_secrets WHERE agent_id = $1 AND name = ANY($2)`,
      [agentId, names],
      'agent_secrets_sealed',
    );
  }

  /** Secrets (after `afterId`, in id order) sealed by another key than `keyId`: what a key rotation re-seals. */
  sealedNotUnder(keyId: string, afterId: string, limit: number): Promise<SealedSecretRow[]> {
    return this.sql.rows<SealedSecretRow>(
      `SELECT id, agent_id, name, key_id, value_sealed FROM agent_secrets WHERE key_id <> $1 AND id > $2 ORDER BY id LIMIT $3`,
      [keyId, afterId, limit],
    );
  }

  /** Stores a re-sealed value unless the value changed since `was` was read (a PUT meanwhile wins). */
  async replaceSealed(was: SealedSecretRow, sealed: Sealed): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE agent_secrets SET key_id = $2, value_sealed = $3 WHERE id = $1 AND value_sealed = $4 RETURNING id`,
      [was.id, sealed.keyId, sealed.data, was.value_sealed],
    );
    return rows.length > 0;
  }
}
