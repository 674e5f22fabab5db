import { ValidationError } from '../errors/app-error.js';
import { isDateTime } from '../validation/date-time.js';
import { unstorableReason } from '../validation/safe-json.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';
import type { Page } from './page.dto.js';
import type { PageQuery, SortOrder } from './page-query.dto.js';

/** Where the list was requested: the links repeat this path and the caller's filters. */
export interface PageRequest {
  path: string;
  query: Record<string, unknown>;
}

export interface KeysetSpec<R> {
  /** sort_by value → SQL expression of a NOT NULL column. */
  sortColumns: Record<string, string>;
  /** SQL expression of the unique tie-breaker (the id). */
  idColumn: string;
  /** The boundary row's sort value, as stored in the cursor (timestamps as ISO strings). */
  sortValue: (row: R, sortBy: string) => string | number;
  rowId: (row: R) => string;
  defaultSort: string;
  defaultOrder: SortOrder;
  /** What each sort column holds; by default `*_at` columns are timestamps and the rest text. */
  sortKinds?: Record<string, SortKind>;
}

/** `number` columns hold integers (version numbers, positions). */
export type SortKind = 'timestamp' | 'number' | 'text';

/** One page's plan: the sort, the direction of the scan and the decoded cursor. */
export interface KeysetPlan {
  size: number;
  sortBy: string;
  order: SortOrder;
  column: string;
  /** Walking backward (page[before]) reads in the opposite order, then flips the rows back. */
  backward: boolean;
  cursor?: CursorPosition & { field: string; cast: string };
  /** SQL direction of the scan and the comparison that continues it. */
  direction: 'ASC' | 'DESC';
  comparison: '<' | '>';
}

const PAGE_PARAMS = new Set(['page[after]', 'page[before]']);

/**
 * Keyset pagination over (sort column, id): stable under concurrent inserts, without duplicates or gaps, and
 * index-friendly at any depth. `planPage` validates the query (422 naming the parameter); the caller runs the
 * query with `plan.direction`, `plan.comparison` and LIMIT `plan.size + 1`; `assemblePage` builds the envelope.
 */
export function planPage<R>(query: PageQuery, spec: KeysetSpec<R>): KeysetPlan {
  const size = query['page[size]'] ?? 50;
  const sortBy = query.sort_by ?? spec.defaultSort;
  const order = query.sort_order ?? spec.defaultOrder;
  const after = query['page[after]'];
  const before = query['page[before]'];
  if (after && before) throw ValidationError.field('page[before]', 'Send page[after] or page[before], not both');
  const column = spec.sortColumns[sortBy];
  if (!column) throw ValidationError.field('sort_by', `sort_by must be one of ${Object.keys(spec.sortColumns).join(', ')}`);
  const backward = Boolean(before);
  const scanDesc = (order === 'desc') !== backward;
  const raw = after ?? before;
  let cursor: KeysetPlan['cursor'];
  if (raw) {
    const field = backward ? 'page[before]' : 'page[after]';
    const position = decodeCursor(raw, field, sortBy, order);
    const kind = spec.sortKinds?.[sortBy] ?? (sortBy.endsWith('_at') ? 'timestamp' : 'text');
    // A forged cursor must be a 422, never a SQL error: its value has to fit the column it is compared with.
    if (!fitsKind(position.value, kind) || !/^[0-9a-f]{24}$/.test(position.id)) {
      throw ValidationError.field(field, `${field} is not a cursor returned by this list`);
    }
    cursor = { ...position, field, cast: CASTS[kind] };
  }
  return { size, sortBy, order, column, backward, cursor, direction: scanDesc ? 'DESC' : 'ASC', comparison: scanDesc ? '<' : '>' };
}

const CASTS: Record<SortKind, string> = { timestamp: '::timestamptz', number: '::bigint', text: '::text' };

/** Whether a cursor's value is one PostgreSQL takes for the column: the same checks as the fields of a request. */
function fitsKind(value: CursorPosition['value'], kind: SortKind): boolean {
  if (kind === 'number') return Number.isSafeInteger(value);
  if (kind === 'timestamp') return isDateTime(value);
  return typeof value === 'string' && unstorableReason(value) === undefined;
}

/** Builds the page envelope from `plan.size + 1` rows read in `plan.direction`. */
export function assemblePage<R, T>(rows: R[], plan: KeysetPlan, spec: KeysetSpec<R>, request: PageRequest, toItem: (row: R) => T): Page<T> {
  const hasMore = rows.length > plan.size;
  if (hasMore) rows.pop();
  if (plan.backward) rows.reverse();
  const cursorOf = (row: R | undefined) =>
    row ? encodeCursor({ sortBy: plan.sortBy, order: plan.order, value: spec.sortValue(row, plan.sortBy), id: spec.rowId(row) }) : null;
  const afterCursor = cursorOf(rows[rows.length - 1]);
  const beforeCursor = cursorOf(rows[0]);
  const nextExists = plan.backward ? true : hasMore;
  const prevExists = plan.backward ? hasMore : Boolean(plan.cursor);
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
