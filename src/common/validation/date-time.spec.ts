import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IsDateTime, parseDateTime } from './date-time.js';

describe('parseDateTime', () => {
  it.each([
    ['2026-01-31T00:00:00Z', Date.UTC(2026, 0, 31)],
    ['2024-02-29T12:30:45Z', Date.UTC(2024, 1, 29, 12, 30, 45)],
    ['2026-01-31t00:00:00z', Date.UTC(2026, 0, 31)],
    ['2026-01-31 00:00:00Z', Date.UTC(2026, 0, 31)],
    ['2026-01-31T02:00:00+02:00', Date.UTC(2026, 0, 31)],
    ['2026-01-30T10:00:00-14:00', Date.UTC(2026, 0, 31)],
    ['2026-01-31T01:00:00+14:00', Date.UTC(2026, 0, 30, 11)],
    ['2026-01-31T00:00:00.5Z', Date.UTC(2026, 0, 31, 0, 0, 0, 500)],
    ['2026-01-31T00:00:00.123456789Z', Date.UTC(2026, 0, 31, 0, 0, 0, 123)],
    ['0001-01-01T00:00:00Z', new Date(0).setUTCFullYear(1, 0, 1)],
    ['9999-12-31T23:59:59.999Z', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
  ])('reads %s', (value, expected) => {
    expect(parseDateTime(value)).toBe(expected);
  });

  it.each([
    '2024-02-30T00:00:00Z', // rolled over by Date.parse, refused by PostgreSQL
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2024-01-00T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:60:00Z',
    '2024-12-31T23:59:60Z',
    '2024-01-01T00:00:00+99:00',
    '2024-01-01T00:00:00+16:00', // valid RFC 3339 grammar, refused by PostgreSQL
    '2024-01-01T00:00:00+14:01',
    '2024-01-01T00:00:00+01:60',
    '0001-01-01T00:00:00+01:00', // year 0 in UTC
    '9999-12-31T23:00:00-01:00', // year 10000 in UTC
    '2024-01-01T00:00:00.1234567890Z',
    '2024-01-01T00:00:00',
    '2024-01-01',
    '2024-01-01T00:00Z',
    ' 2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00Z\n',
    '+002024-01-01T00:00:00Z',
    'yesterday',
    '',
  ])('refuses %p', (value) => {
    expect(parseDateTime(value)).toBeUndefined();
  });
});

describe('IsDateTime', () => {
  class Query {
    @IsDateTime() at: unknown;
    @IsDateTime({ each: true }) range: unknown;
  }
  const failed = (plain: object) =>
    validateSync(plainToInstance(Query, { at: '2026-01-31T00:00:00Z', range: [], ...plain })).map((e) => [
      e.property,
      ...Object.values(e.constraints ?? {}),
    ]);

  it('names the field and shows the form it expects', () => {
    expect(failed({})).toEqual([]);
    expect(failed({ at: '2024-02-30T00:00:00Z' })).toEqual([['at', 'at must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z']]);
    expect(failed({ at: 1700000000000 })).toHaveLength(1);
    expect(failed({ range: ['2026-01-31T00:00:00Z', '2024-02-30T00:00:00Z'] })).toHaveLength(1);
  });
});
