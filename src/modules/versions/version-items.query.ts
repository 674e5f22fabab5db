import { decodeCursor, encodeCursor } from '../../common/pagination/cursor.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ValidationError } from '../../common/errors/app-error.js';
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

const SORT_COLUMNS: Record<string, string> = { created_at: 'i.created_at', updated_at: 'i.updated_at', number: 'i.number' };

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

/** Keyset pagination over the union of versions and revisions, with the same envelope and cursors as every list. */
export async function listVersionItems(sql: SqlService, agentId: string, query: ListVersionsQueryDto, request: PageRequest): Promise<Page<VersionResponseDto>> {
  const size = query['page[size]'] ?? 50;
  const sortBy = query.sort_by ?? 'created_at';
  const order = query.sort_order ?? 'desc';
  const after = query['page[after]'];
  const before = query['page[before]'];
  if (after && before) throw ValidationError.field('page[before]', 'Send page[after] or page[before], not both');
  const column = SORT_COLUMNS[sortBy]!;

  const values: unknown[] = [agentId];
  const where: string[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query['filters[status]']) where.push(`i.status = ${param(query['filters[status]'])}`);
  if (query['filters[tag]']) where.push(`${param(query['filters[tag]'])} = ANY(i.tags)`);
  if (query['filters[version_tag]']) where.push(`i.version_tag = ${param(query['filters[version_tag]'])}`);
  if (query['filters[label]']) where.push(`i.label ILIKE ${param(`%${escapeLike(query['filters[label]'])}%`)} ESCAPE '\\'`);
  if (query['filters[number]'] !== undefined) where.push(`i.number = ${param(query['filters[number]'])}`);
  if (query['filters[exclude_revisions]'] === true) where.push('NOT i.is_revision');

  const backward = Boolean(before);
  const cursor = after ?? before;
  const scanDesc = (order === 'desc') !== backward;
  if (cursor) {
    const position = decodeCursor(cursor, backward ? 'page[before]' : 'page[after]', sortBy, order);
    const cast = sortBy === 'number' ? '::int' : '::timestamptz';
    where.push(`(${column}, i.id) ${scanDesc ? '<' : '>'} (${param(position.value)}${cast}, ${param(position.id)})`);
  }
  const direction = scanDesc ? 'DESC' : 'ASC';
  const rows = await sql.rows<VersionItemRow>(
    `SELECT * FROM (${ITEMS}) i ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${column} ${direction}, i.id ${direction} LIMIT ${param(size + 1)}`,
    values,
  );
  const hasMore = rows.length > size;
  if (hasMore) rows.pop();
  if (backward) rows.reverse();

  const sortValue = (row: VersionItemRow) => (sortBy === 'number' ? row.number : (sortBy === 'updated_at' ? row.updated_at : row.created_at).toISOString());
  const cursorOf = (row: VersionItemRow | undefined) => (row ? encodeCursor({ sortBy, order, value: sortValue(row), id: row.id }) : null);
  const afterCursor = cursorOf(rows[rows.length - 1]);
  const beforeCursor = cursorOf(rows[0]);
  const nextExists = backward ? Boolean(cursor) : hasMore;
  const prevExists = backward ? hasMore : Boolean(cursor);
  return {
    results: rows.map(toVersionResponse),
    meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
    links: {
      next: nextExists && afterCursor ? pageLink(request, 'page[after]', afterCursor) : null,
      prev: prevExists && beforeCursor ? pageLink(request, 'page[before]', beforeCursor) : null,
    },
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function pageLink(request: PageRequest, name: string, cursor: string): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query)) {
    if (key === 'page[after]' || key === 'page[before]' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  search.append(name, cursor);
  return `${request.path}?${search.toString()}`;
}
