import type { QueryResultRow } from 'pg';
import type { SqlParams } from '../../database/sql-params.js';
import type { SqlService } from '../../database/sql.service.js';
import { assemblePage, planPage, type KeysetPlan, type KeysetSpec, type PageRequest } from './keyset.js';
import type { Page } from './page.dto.js';
import type { PageQuery } from './page-query.dto.js';

/** A SELECT without ORDER BY / LIMIT: the pager adds the cursor condition, the order and the limit. */
export interface SqlListQuery {
  /**
   * `SELECT ... FROM ...` (no WHERE). A function gets the page's plan, to bound an inner scan by the cursor and the
   * page size (a derived list whose sort key no index holds, e.g. the transcript).
   */
  select: string | ((plan: KeysetPlan) => string);
  where: string[];
  params: SqlParams;
}

/**
 * Keyset pagination of raw SQL, for reads that are not entity queries (threads at a million rows, transcripts
 * derived from interactions): the same parameters, cursors, envelope and links as `paginate()` (see keyset.ts).
 */
export async function paginateSql<R extends QueryResultRow, T>(
  sql: SqlService,
  list: SqlListQuery,
  query: PageQuery,
  spec: KeysetSpec<R>,
  request: PageRequest,
  toItem: (row: R) => T,
): Promise<Page<T>> {
  const plan = planPage(query, spec);
  const where = [...list.where];
  if (plan.cursor) {
    const { value, id, cast } = plan.cursor;
    where.push(`(${plan.column}, ${spec.idColumn}) ${plan.comparison} (${list.params.add(value)}${cast}, ${list.params.add(id)})`);
  }
  const select = typeof list.select === 'string' ? list.select : list.select(plan);
  const text = `${select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${plan.column} ${plan.direction}, ${spec.idColumn} ${plan.direction} LIMIT ${plan.size + 1}`;
  const rows = await sql.rows<R>(text, list.params.values);
  return assemblePage(rows, plan, spec, request, toItem);
}

/**
 * The usual keyset of a raw-SQL list: newest or oldest first by `created_at`, ties broken by id. `alias` is the
 * table's alias in the SELECT; `column` overrides the sorted expression (a planner hint, say).
 */
export function byCreatedAt<R extends { id: string; created_at: Date }>(
  alias: string,
  defaultOrder: 'asc' | 'desc',
  column = `${alias}.created_at`,
): KeysetSpec<R> {
  return {
    sortColumns: { created_at: column },
    idColumn: `${alias}.id`,
    sortValue: (row) => row.created_at.toISOString(),
    rowId: (row) => row.id,
    defaultSort: 'created_at',
    defaultOrder,
  };
}
