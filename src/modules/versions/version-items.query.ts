import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import type { SqlService } from '../../database/sql.service.js';
import type { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import type { VersionResponseDto } from './dto/version-response.dto.js';
import type { VersionStatus } from './entities/agent-version.entity.js';

/** One listing item as read: a base version or a pushed revision (R ≥ 1), with its version's metadata. */
export interface VersionItemRow {
  id: string;
  agent_id: string;
  number: number;
  version_tag: string;
  status: VersionStatus;
  is_live: boolean;
  is_revision: boolean;
  base_version_id: string | null;
  label: string | null;
  tags: string[];
  notes: string | null;
  digest: string;
  message: string | null;
  created_at: Date;
  updated_at: Date;
}

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

export const toVersionResponse = (row: VersionItemRow): VersionResponseDto => ({
  id: row.id,
  agent_id: row.agent_id,
  number: row.number,
  version_tag: row.version_tag,
  status: row.status,
  is_live: row.is_live,
  is_revision: row.is_revision,
  base_version_id: row.base_version_id,
  label: row.label,
  tags: row.tags,
  notes: row.notes,
  digest: row.digest,
  message: row.message,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** One base-version item; read on `sql` (the pool) or inside a transaction through `query`. */
export async function readVersionItem(
  query: (text: string, values: unknown[]) => Promise<VersionItemRow[]>,
  agentId: string,
  versionId: string,
): Promise<VersionItemRow | undefined> {
  const rows = await query(`SELECT * FROM (${ITEMS}) i WHERE i.id = $2 AND NOT i.is_revision`, [agentId, versionId]);
  return rows[0];
}

/** Keyset pagination over the union of versions and revisions: the shared pager, so the same cursors and checks as every list. */
export function listVersionItems(
  sql: SqlService,
  agentId: string,
  query: ListVersionsQueryDto,
  request: PageRequest,
): Promise<Page<VersionResponseDto>> {
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
    sql,
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

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
