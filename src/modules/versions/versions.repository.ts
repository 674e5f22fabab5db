import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import type { Bundle } from '../bundles/bundle.types.js';
import type { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import type { VersionResponseDto } from './dto/version-response.dto.js';
import { AgentRevisionEntity } from './entities/agent-revision.entity.js';
import { AgentVersionEntity } from './entities/agent-version.entity.js';
import { toVersionResponse, type VersionItemRow } from './version-item.js';

/** Base versions (current revision's tag and digest) and their pushed revisions, of one agent ($1). */
const ITEMS = `
  SELECT v.id, v.agent_id, v.number, r.version_tag, v.status,
         COALESCE(a.live_version_id = v.id, false) AS is_live, false AS is_revision, NULL::char(24) AS base_version_id,
         v.label, v.tags, v.notes, r.digest, NULL::text AS message, v.created_at, v.updated_at
    FROM agent_versions v
    JOIN agents a ON a.id = v.agent_id
    JOIN agent_revisions r ON r.id = v.current_revision_id
   WHERE v.agent_id = $1
  UNION ALL
  SELECT r.id, r.agent_id, v.number, r.version_tag, v.status,
         COALESCE(a.live_revision_id = r.id, false), true, v.id,
         v.label, v.tags, v.notes, r.digest, r.message, r.created_at, r.created_at
    FROM agent_revisions r
    JOIN agent_versions v ON v.id = r.version_id
    JOIN agents a ON a.id = r.agent_id
   WHERE r.agent_id = $1 AND r.revision_number > 0`;

/** `agent_versions` and `agent_revisions`; inside a UnitOfWork every call joins its transaction. */
@Injectable()
export class VersionsRepository {
  constructor(private readonly sql: SqlService) {}

  async nextNumber(agentId: string): Promise<number> {
    const row = await this.sql.one<{ next: number }>(
      `SELECT COALESCE(MAX(number), 0) + 1 AS next FROM agent_versions WHERE agent_id = $1`,
      [agentId],
    );
    return Number(row!.next);
  }

  async nextRevisionNumber(versionId: string): Promise<number> {
    const row = await this.sql.one<{ next: number }>(
      `SELECT COALESCE(MAX(revision_number), -1) + 1 AS next FROM agent_revisions WHERE version_id = $1`,
      [versionId],
    );
    return Number(row!.next);
  }

  saveVersion(version: Omit<AgentVersionEntity, 'createdAt' | 'updatedAt'>): Promise<AgentVersionEntity> {
    return this.sql.repository(AgentVersionEntity).save(version);
  }

  async updateVersion(versionId: string, changes: Partial<AgentVersionEntity>): Promise<void> {
    await this.sql.repository(AgentVersionEntity).update({ id: versionId }, changes);
  }

  insertRevision(revision: AgentRevisionEntity): Promise<AgentRevisionEntity> {
    return this.sql.repository(AgentRevisionEntity).save(revision);
  }

  /** The agent's version; with `lock`, its row is locked (FOR UPDATE) until the current transaction ends. */
  findVersion(agentId: string, versionId: string, lock = false): Promise<AgentVersionEntity | null> {
    const qb = this.sql
      .repository(AgentVersionEntity)
      .createQueryBuilder('v')
      .where('v.id = :versionId AND v.agent_id = :agentId', { versionId: versionId.toLowerCase(), agentId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findRevision(where: { id: string } | { versionId: string; versionTag: string }): Promise<AgentRevisionEntity | null> {
    return this.sql.repository(AgentRevisionEntity).findOneBy(where);
  }

  /** The bundle of a version's current revision (a clone's source). */
  /** The current revision (its id and bundle) of one of the agent's versions. */
  currentRevisionOf(agentId: string, versionId: string): Promise<{ id: string; bundle: Bundle } | undefined> {
    return this.sql.one<{ id: string; bundle: Bundle }>(
      `SELECT r.id, r.bundle FROM agent_versions v JOIN agent_revisions r ON r.id = v.current_revision_id WHERE v.id = $1 AND v.agent_id = $2`,
      [versionId.toLowerCase(), agentId],
    );
  }

  /** Agent delete: hard-deletes the versions and, by cascade, revisions. */
  async deleteAllOfAgent(agentId: string): Promise<void> {
    await this.sql.rows(`DELETE FROM agent_versions WHERE agent_id = $1`, [agentId]);
  }

  /** One base-version item. */
  item(agentId: string, versionId: string): Promise<VersionItemRow | undefined> {
    return this.sql.one<VersionItemRow>(`SELECT * FROM (${ITEMS}) i WHERE i.id = $2 AND NOT i.is_revision`, [agentId, versionId]);
  }

  /** Keyset pagination over the union of versions and revisions: the shared pager, so the same cursors and checks as every list. */
  items(agentId: string, query: ListVersionsQueryDto, request: PageRequest): Promise<Page<VersionResponseDto>> {
    const params = new SqlParams();
    params.add(agentId); // $1 of ITEMS
    const where: string[] = [];
    if (query['filters[status]']) where.push(`i.status = ${params.add(query['filters[status]'])}`);
    if (query['filters[tag]']) where.push(`${params.add(query['filters[tag]'])} = ANY(i.tags)`);
    if (query['filters[version_tag]']) where.push(`i.version_tag = ${params.add(query['filters[version_tag]'])}`);
    if (query['filters[label]']) where.push(`i.label ILIKE ${params.add(`%${escapeLike(query['filters[label]'])}%`)} ESCAPE '\\'`);
    if (query['filters[number]'] !== undefined) where.push(`i.number = ${params.add(query['filters[number]'])}`);
    if (query['filters[exclude_revisions]'] === true) where.push('NOT i.is_revision');
    return paginateSql<VersionItemRow & Record<string, unknown>, VersionResponseDto>(
      this.sql,
      { select: `SELECT * FROM (${ITEMS}) i`, where, params },
      query,
      {
        sortColumns: { created_at: 'i.created_at', updated_at: 'i.updated_at', number: 'i.number' },
        sortKinds: { number: 'number' },
        idColumn: 'i.id',
        sortValue: (row, sortBy) =>
          sortBy === 'number' ? row.number : (sortBy === 'updated_at' ? row.updated_at : row.created_at).toISOString(),
        rowId: (row) => row.id,
        defaultSort: 'created_at',
        defaultOrder: 'desc',
      },
      request,
      toVersionResponse,
    );
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
