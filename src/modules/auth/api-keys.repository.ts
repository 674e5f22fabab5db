import { Injectable } from '@nestjs/common';
import { IsNull, type DeepPartial, type EntityTarget } from 'typeorm';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery, SortOrder } from '../../common/pagination/page-query.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { AgentApiKeyEntity } from './entities/agent-api-key.entity.js';
import { PublishableKeyEntity } from './entities/publishable-key.entity.js';

/** A key of an agent: publishable keys (client code) and agent API keys (events webhook). */
type AgentKey = PublishableKeyEntity | AgentApiKeyEntity;

/**
 * Writes of the per-agent key tables (`publishable_keys`, `agent_api_keys`); auth owns them, and its
 * CredentialsRepository reads them on the hot path. Keys management (KeysService) and agent deletion write here.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: SqlService) {}

  insert<K extends AgentKey>(entity: EntityTarget<K>, key: DeepPartial<K>): Promise<K> {
    return this.sql.repository(entity).save(key) as Promise<K>;
  }

  /** The agent's unrevoked keys, one page, newest first by default. */
  page<K extends AgentKey, R>(
    entity: EntityTarget<K>,
    agentId: string,
    query: PageQuery,
    defaults: { sort: string; order: SortOrder },
    request: PageRequest,
    toItem: (key: K) => R,
  ): Promise<Page<R>> {
    const qb = this.sql.repository(entity).createQueryBuilder('k').where('k.agent_id = :agentId AND k.revoked_at IS NULL', { agentId });
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
  async revoke(entity: EntityTarget<AgentKey>, agentId: string, keyId: string): Promise<boolean> {
    const result = await this.sql
      .repository(entity)
      .update({ id: keyId.toLowerCase(), agentId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return Boolean(result.affected);
  }

  /** Agent deletion: every key of these agents goes for good. */
  async deleteAllForAgents(agentIds: string[]): Promise<void> {
    await this.sql.rows(`DELETE FROM publishable_keys WHERE agent_id = ANY($1)`, [agentIds]);
    await this.sql.rows(`DELETE FROM agent_api_keys WHERE agent_id = ANY($1)`, [agentIds]);
  }
}
