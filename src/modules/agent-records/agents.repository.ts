import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import type { Bundle } from '../bundles/bundle.types.js';
import { AgentEntity, type AgentLock } from './agent.entity.js';
import { ListAgentsQueryDto } from './dto/agent.dto.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 'a.created_at', updated_at: 'a.updated_at', name: 'a.name' };
const SORT_VALUE: Record<string, (a: AgentEntity) => string> = {
  created_at: (a) => a.createdAt.toISOString(),
  updated_at: (a) => a.updatedAt.toISOString(),
  name: (a) => a.name,
};

/** An agent's live pointer with the live revision's bundle (the messaging hot path's one read on a cache miss). */
export interface LiveAgentRow {
  project_id: string;
  runtime: 'v1' | 'v2';
  live_version_id: string | null;
  live_revision_id: string | null;
  live_version_tag: string | null;
  digest: string | null;
  bundle: Bundle | null;
}

/** The `agents` table: the only place it is written, its live pointer included. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly sql: SqlService) {}

  /**
   * The caller's agent if it is visible: same organization, not deleted, in a project that is not deleted.
   * With a lock (inside a UnitOfWork), the row stays locked until commit. `update` (FOR NO KEY UPDATE) is what every
   * change to an agent's versions that moves its live pointer (publish, archive, rename, delete, version numbering)
   * takes first; `share` (FOR SHARE) is for rows created under the agent (keys): it waits for a concurrent delete to
   * commit, then sees the agent gone, so no key outlives its agent.
   */
  findVisible(organizationId: string, agentId: string, lock: AgentLock = false): Promise<AgentEntity | null> {
    const qb = this.sql
      .repository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.id = :agentId AND a.organization_id = :organizationId AND a.deleted_at IS NULL', {
        agentId: agentId.toLowerCase(),
        organizationId,
      })
      .andWhere('EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id AND p.deleted_at IS NULL)');
    // FOR NO KEY UPDATE, not FOR UPDATE: it still serializes writers of the agent, but lets concurrent inserts that
    // reference the agent (a push's revision row takes FOR KEY SHARE through its foreign key) proceed — with FOR UPDATE,
    // publish (agent, then version) and push (version, then the FK's key-share on the agent) deadlock.
    if (lock === 'share') qb.setLock('pessimistic_read');
    else if (lock === 'update') qb.setLock('for_no_key_update');
    return qb.getOne();
  }

  create(agent: Omit<AgentEntity, 'createdAt' | 'updatedAt'>): Promise<AgentEntity> {
    return this.sql.repository(AgentEntity).save(agent);
  }

  page<R>(
    organizationId: string,
    projectId: string,
    query: ListAgentsQueryDto,
    request: PageRequest,
    toItem: (agent: AgentEntity) => R,
  ): Promise<Page<R>> {
    const qb = this.sql
      .repository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.project_id = :projectId AND a.organization_id = :organizationId AND a.deleted_at IS NULL', { projectId, organizationId });
    const name = query['filters[name]'];
    if (name) qb.andWhere(`a.name ILIKE :name ESCAPE '\\'`, { name: `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    return paginate(
      qb,
      query,
      {
        sortColumns: SORT_COLUMNS,
        idColumn: 'a.id',
        sortValue: (a, sortBy) => SORT_VALUE[sortBy]!(a),
        rowId: (a) => a.id,
        defaultSort: ListAgentsQueryDto.defaultSort,
        defaultOrder: ListAgentsQueryDto.defaultOrder,
      },
      request,
      toItem,
    );
  }

  async updateDetails(
    agentId: string,
    details: { name: string; description: string | null; publishRequiresPassingEvaluation: boolean },
  ): Promise<void> {
    await this.sql.repository(AgentEntity).update({ id: agentId }, details);
  }

  /** Points the agent at a (version, revision): what answers for it from now on. */
  async moveLivePointer(agentId: string, live: { versionId: string; revisionId: string; versionTag: string }): Promise<void> {
    await this.sql.rows(
      `UPDATE agents SET live_version_id = $2, live_revision_id = $3, live_version_tag = $4, updated_at = now() WHERE id = $1`,
      [agentId, live.versionId, live.revisionId, live.versionTag],
    );
  }

  /** Soft-deletes one agent or every live agent of a project, clearing their live pointers; returns their ids. */
  async softDelete(organizationId: string, scope: { agentId: string } | { projectId: string }): Promise<string[]> {
    const [column, id] = 'agentId' in scope ? ['id', scope.agentId] : ['project_id', scope.projectId];
    const rows = await this.sql.rows<{ id: string }>(
      `WITH deleted AS (
         UPDATE agents SET deleted_at = now(), live_version_id = NULL, live_revision_id = NULL, live_version_tag = NULL, updated_at = now()
          WHERE organization_id = $1 AND ${column} = $2 AND deleted_at IS NULL RETURNING id)
       SELECT id FROM deleted ORDER BY id`,
      [organizationId, id],
    );
    return rows.map((row) => row.id);
  }

  /** The agent's live pointer and the live revision's bundle; undefined for an unknown or deleted agent. */
  findLive(organizationId: string, agentId: string): Promise<LiveAgentRow | undefined> {
    return this.sql.one<LiveAgentRow>(
      `SELECT a.project_id, a.runtime, a.live_version_id, a.live_revision_id, a.live_version_tag, r.digest, r.bundle
         FROM agents a LEFT JOIN agent_revisions r ON r.id = a.live_revision_id
        WHERE a.id = $1 AND a.organization_id = $2 AND a.deleted_at IS NULL`,
      [agentId, organizationId],
      'live_agent',
    );
  }
}
