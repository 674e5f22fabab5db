import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ValidationError } from '../errors/app-error.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Page } from './page.dto.js';
import type { PageQuery, SortOrder } from './page-query.dto.js';

/** Where the list was requested: the links repeat this path and the caller's filters. */
export interface PageRequest {
  path: string;
  query: Record<string, unknown>;
}

export interface KeysetSpec<E> {
  /** sort_by value → SQL expression of a NOT NULL column. */
  sortColumns: Record<string, string>;
  /** SQL expression of the unique tie-breaker (the id). */
  idColumn: string;
  /** The boundary row's sort value, as stored in the cursor (timestamps as ISO strings). */
  sortValue: (row: E, sortBy: string) => string | number;
  rowId: (row: E) => string;
  defaultSort: string;
  defaultOrder: SortOrder;
}

const PAGE_PARAMS = new Set(['page[after]', 'page[before]']);

/**
 * Keyset pagination over (sort column, id): stable under concurrent inserts, with no duplicates or gaps,
 * and index-friendly at any depth. Reads one row more than asked to learn whether more exist.
 */
export async function paginate<E extends ObjectLiteral, R>(
  qb: SelectQueryBuilder<E>,
  query: PageQuery,
  spec: KeysetSpec<E>,
  request: PageRequest,
  toItem: (row: E) => R,
): Promise<Page<R>> {
  const size = query['page[size]'] ?? 50;
  const sortBy = query.sort_by ?? spec.defaultSort;
  const order = query.sort_order ?? spec.defaultOrder;
  const after = query['page[after]'];
  const before = query['page[before]'];
  if (after && before) throw ValidationError.field('page[before]', 'Send page[after] or page[before], not both');
  const column = spec.sortColumns[sortBy];
  if (!column) throw ValidationError.field('sort_by', `sort_by must be one of ${Object.keys(spec.sortColumns).join(', ')}`);

  const backward = Boolean(before);
  const cursorParam = backward ? 'page[before]' : 'page[after]';
  const cursor = after ?? before;
  // Walking backward reads in the opposite order, then flips the rows back.
  const scanDesc = (order === 'desc') !== backward;
  if (cursor) {
    const position = decodeCursor(cursor, cursorParam, sortBy, order);
    const cast = typeof position.value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(position.value) ? '::timestamptz' : '';
    qb.andWhere(`(${column}, ${spec.idColumn}) ${scanDesc ? '<' : '>'} (:cursorValue${cast}, :cursorId)`, {
      cursorValue: position.value,
      cursorId: position.id,
    });
  }
  const direction = scanDesc ? 'DESC' : 'ASC';
  const rows = await qb.orderBy(column, direction).addOrderBy(spec.idColumn, direction).limit(size + 1).getMany();
  const hasMore = rows.length > size;
  if (hasMore) rows.pop();
  if (backward) rows.reverse();

  const cursorOf = (row: E | undefined) =>
    row ? encodeCursor({ sortBy, order, value: spec.sortValue(row, sortBy), id: spec.rowId(row) }) : null;
  const afterCursor = cursorOf(rows[rows.length - 1]);
  const beforeCursor = cursorOf(rows[0]);
  const nextExists = backward ? Boolean(cursor) : hasMore;
  const prevExists = backward ? hasMore : Boolean(cursor);
  return {
    results: rows.map(toItem),
    meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
    links: {
      next: nextExists && afterCursor ? pageLink(request, 'page[after]', afterCursor) : null,
      prev: prevExists && beforeCursor ? pageLink(request, 'page[before]', beforeCursor) : null,
    },
  };
}

function pageLink(request: PageRequest, param: string, cursor: string): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query)) {
    if (PAGE_PARAMS.has(key) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  search.append(param, cursor);
  return `${request.path}?${search.toString()}`;
}
