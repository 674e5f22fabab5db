import { ValidationError } from '../errors/app-error.js';
import type { SortOrder } from './page-query.dto.js';

/** What a cursor pins: the sort it was made under and the boundary row's sort value and id. */
export interface CursorPosition {
  sortBy: string;
  order: SortOrder;
  value: string | number | null;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.sortBy, position.order, position.value, position.id])).toString('base64url');
}

/** Decodes a caller's cursor; one made under another sort, or not ours at all, is a 422 naming the parameter. */
export function decodeCursor(cursor: string, field: string, sortBy: string, order: SortOrder): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || typeof parsed[3] !== 'string') {
    throw ValidationError.field(field, `${field} is not a cursor returned by this list`);
  }
  const [cursorSort, cursorOrder, value, id] = parsed as [string, SortOrder, string | number | null, string];
  if (cursorSort !== sortBy || cursorOrder !== order) {
    throw ValidationError.field(field, `${field} was made for sort_by=${cursorSort}&sort_order=${cursorOrder}; repeat those or start over`);
  }
  return { sortBy, order, value, id };
}
