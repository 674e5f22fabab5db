import { ValidationError } from '../errors/app-error.js';
import { encodeCursor } from './cursor.js';
import { planPage, type KeysetSpec } from './keyset.js';

interface Row {
  id: string;
  created_at: Date;
  number: number;
  name: string;
}

const spec: KeysetSpec<Row> = {
  sortColumns: { created_at: 'r.created_at', number: 'r.number', name: 'r.name' },
  idColumn: 'r.id',
  sortKinds: { number: 'number' },
  sortValue: (row, sortBy) => (sortBy === 'number' ? row.number : sortBy === 'name' ? row.name : row.created_at.toISOString()),
  rowId: (row) => row.id,
  defaultSort: 'created_at',
  defaultOrder: 'desc',
};
const ID = 'a'.repeat(24);
const forge = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url');
const plan = (sortBy: string, cursor: string, param: 'page[after]' | 'page[before]' = 'page[after]') =>
  planPage({ sort_by: sortBy, [param]: cursor }, spec);

const refusal = (fn: () => unknown): string[] | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.details?.map((d) => d.field);
    throw error;
  }
  return undefined;
};

describe('planPage cursors', () => {
  it('accepts the cursors it issues, with the cast of the column', () => {
    expect(
      plan('created_at', encodeCursor({ sortBy: 'created_at', order: 'desc', value: '2026-01-31T00:00:00.123Z', id: ID })).cursor,
    ).toMatchObject({ cast: '::timestamptz', field: 'page[after]' });
    expect(plan('number', encodeCursor({ sortBy: 'number', order: 'desc', value: 3, id: ID }), 'page[before]').cursor).toMatchObject({
      value: 3,
      cast: '::bigint',
      field: 'page[before]',
    });
    expect(plan('name', encodeCursor({ sortBy: 'name', order: 'desc', value: 'Shop', id: ID })).cursor).toMatchObject({
      value: 'Shop',
      cast: '::text',
    });
  });

  it.each([
    ['created_at', ['created_at', 'desc', '2024-02-30T00:00:00Z', ID]],
    ['created_at', ['created_at', 'desc', '0000-01-01T00:00:00Z', ID]],
    ['created_at', ['created_at', 'desc', '2024-01-01T00:00:00+99:00', ID]],
    ['created_at', ['created_at', 'desc', '2024-01-01T00:00:00Z; DROP TABLE x', ID]],
    ['created_at', ['created_at', 'desc', 5, ID]],
    ['created_at', ['created_at', 'desc', { a: 1 }, ID]],
    ['created_at', ['created_at', 'desc', '2024-01-01T00:00:00Z', 'not-an-id']],
    ['number', ['number', 'desc', '3', ID]],
    ['number', ['number', 'desc', 1.5, ID]],
    ['number', ['number', 'desc', 1e300, ID]],
    ['name', ['name', 'desc', 'a\u0000b', ID]],
    ['name', ['name', 'desc', null, ID]],
    ['created_at', { sort: 'created_at' }],
    ['created_at', 42],
  ])('refuses a forged %s cursor %j with 422 naming the parameter', (sortBy, content) => {
    expect(refusal(() => plan(sortBy, forge(content)))).toEqual(['page[after]']);
    expect(refusal(() => plan(sortBy, forge(content), 'page[before]'))).toEqual(['page[before]']);
  });
});
