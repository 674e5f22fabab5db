import type { QueryResultRow } from 'pg';
import { ValidationError } from '../../common/errors/app-error.js';
import { decodeCursor, encodeCursor } from '../../common/pagination/cursor.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery, SortOrder } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import type { SqlService } from '../../database/sql.service.js';

/** Positional parameters for hand-built SQL: `p.add(value)` returns its `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A SELECT without ORDER BY / LIMIT: the keyset pager adds the cursor condition, the order and the limit. */
export interface SqlListQuery {
  /** `SELECT ... FROM ...` (no WHERE). */
  select: string;
  where: string[];
  params: SqlParams;
}

export interface SqlKeysetSpec<R> {
  /** sort_by value → SQL expression of a NOT NULL column. */
  sortColumns: Record<string, string>;
  /** SQL expression of the unique tie-breaker. */
  idColumn: string;
  sortValue: (row: R, sortBy: string) => string | number;
  /** What a cursor's sort value must be: an ISO timestamp or a number (anything else is a 422, not a SQL error). */
  valueKind: 'timestamp' | 'number';
  rowId: (row: R) => string;
  defaultSort: string;
  defaultOrder: SortOrder;
}

const PAGE_PARAMS = new Set(['page[after]', 'page[before]']);
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

/**
 * The raw-SQL twin of `common/pagination/paginate()` for reads that are not entity queries (threads at a
 * million rows, transcripts derived from interactions): same query parameters, same cursor codec, same page
 * envelope and links. Keyset over (sort column, id); reads one row more than asked to learn whether more exist.
 */
export async function paginateSql<R extends QueryResultRow, T>(
  sql: SqlService,
  list: SqlListQuery,
  query: PageQuery,
  spec: SqlKeysetSpec<R>,
  request: PageRequest,
  toItem: (row: R) => T,
): Promise<Page<T>> {
  const size = query['page[size]'] ?? 50;
  const sortBy = query.sort_by ?? spec.defaultSort;
  const order = query.sort_order ?? spec.defaultOrder;
  const after = query['page[after]'];
  const before = query['page[before]'];
  if (after && before) throw ValidationError.field('page[before]', 'Send page[after] or page[before], not both');
  const column = spec.sortColumns[sortBy];
  if (!column) throw ValidationError.field('sort_by', `sort_by must be one of ${Object.keys(spec.sortColumns).join(', ')}`);

  const backward = Boolean(before);
  const cursor = after ?? before;
  const scanDesc = (order === 'desc') !== backward;
  const where = [...list.where];
  if (cursor) {
    const field = backward ? 'page[before]' : 'page[after]';
    const position = decodeCursor(cursor, field, sortBy, order);
    const valid = spec.valueKind === 'number'
      ? typeof position.value === 'number' && Number.isSafeInteger(position.value)
      : typeof position.value === 'string' && ISO_TIMESTAMP.test(position.value) && !Number.isNaN(Date.parse(position.value));
    if (!valid || !/^[0-9a-f]{24}$/.test(position.id)) throw ValidationError.field(field, `${field} is not a cursor returned by this list`);
    const cast = spec.valueKind === 'timestamp' ? '::timestamptz' : '::bigint';
    where.push(`(${column}, ${spec.idColumn}) ${scanDesc ? '<' : '>'} (${list.params.add(position.value)}${cast}, ${list.params.add(position.id)})`);
  }
  const direction = scanDesc ? 'DESC' : 'ASC';
  const text = `${list.select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${column} ${direction}, ${spec.idColumn} ${direction} LIMIT ${size + 1}`;
  const rows = await sql.rows<R>(text, list.params.values);
  const hasMore = rows.length > size;
  if (hasMore) rows.pop();
  if (backward) rows.reverse();

  const cursorOf = (row: R | undefined) =>
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
