import type { AgentsDeleted } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { Injectable } from '@nestjs/common';
import { IsNull, type DeepPartial } from 'typeorm';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery, SortOrder } from '../../common/pagination/page-query.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { AgentApiKeyEntity } from './entities/agent-api-key.entity.js';
import { PublishableKeyEntity } from './entities/publishable-key.entity.js';

/** The keys of an agent: publishable keys (client code) and agent API keys (events webhook). */
export interface AgentKeys {
  publishable: PublishableKeyEntity;
  agent_api: AgentApiKeyEntity;
}
export type AgentKeyKind = keyof AgentKeys;

const KEY_ENTITIES = { publishable: PublishableKeyEntity, agent_api: AgentApiKeyEntity } as const;

/**
 * Writes of the per-agent key tables (`publishable_keys`, `agent_api_keys`); auth owns them, and its
 * CredentialsRepository reads them on the hot path. Keys management (KeysService) and agent deletion write here.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: SqlService) {}

  insert<K extends AgentKeyKind>(kind: K, key: DeepPartial<AgentKeys[K]>): Promise<AgentKeys[K]> {
    return this.sql.repository<AgentKeys[K]>(KEY_ENTITIES[kind]).save(key) as Promise<AgentKeys[K]>;
  }

  /** The agent's unrevoked keys, one page, newest first by default. */
  page<K extends AgentKeyKind, R>(
    kind: K,
    agentId: string,
    query: PageQuery,
    defaults: { sort: string; order: SortOrder },
    request: PageRequest,
    toItem: (key: AgentKeys[K]) => R,
  ): Promise<Page<R>> {
    const qb = this.sql
      .repository<AgentKeys[K]>(KEY_ENTITIES[kind])
      .createQueryBuilder('k')
      .where('k.agent_id = :agentId AND k.revoked_at IS NULL', { agentId });
    return paginate(
      qb,
      query,
      {
        sortColumns: { created_at: 'k.created_at' },
        idColumn: 'k.id',
        sortValue: (k) => k.createdAt.toISOString(),
        rowId: (k) => k.id,
        defaultSort: defaults.sort,
        defaultOrder: defaults.order,
      },
      request,
      toItem,
    );
  }

  /** Revokes the agent's key; false when it has no such unrevoked key. */
  async revoke(kind: AgentKeyKind, agentId: string, keyId: string): Promise<boolean> {
    const result = await this.sql
      .repository<AgentKeys[AgentKeyKind]>(KEY_ENTITIES[kind])
      .update({ id: keyId.toLowerCase(), agentId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return Boolean(result.affected);
  }

  /** Agent deletion (in its transaction): every key of these agents goes for good. */
  @OnBusEvent('agents.deleted', { phase: 'transaction' })
  async deleteAllForAgents({ agentIds }: AgentsDeleted): Promise<void> {
    await this.sql.rows(`DELETE FROM publishable_keys WHERE agent_id = ANY($1)`, [agentIds]);
    await this.sql.rows(`DELETE FROM agent_api_keys WHERE agent_id = ANY($1)`, [agentIds]);
  }
}
