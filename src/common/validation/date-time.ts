import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * RFC 3339 `date-time` (section 5.6): `T`/`t`/space between date and time, `Z`/`z` or a numeric offset, up to 9
 * fraction digits (nanoseconds; PostgreSQL keeps microseconds).
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The widest offset of any real time zone (Kiribati, +14:00); PostgreSQL refuses beyond ±15:59. */
const MAX_OFFSET_MINUTES = 14 * 60;
/** Instants from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z: PostgreSQL has no year 0, and JS writes later years in an expanded form. */
const EARLIEST = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const DATE_TIME_EXAMPLE = '2026-01-31T00:00:00Z';

/**
 * Epoch milliseconds of an RFC 3339 date-time that names a real instant, or undefined. Validated by round-trip:
 * the fields are built into a UTC date and must come back unchanged, so 2024-02-30, 2023-02-29, 24:00 and leap
 * seconds are refused where `Date.parse` would roll them over (and PostgreSQL would then refuse the value as
 * written). Year 0000, offsets beyond ±14:00 and instants outside years 1..9999 are refused too. Fraction digits
 * beyond the millisecond are dropped: callers needing them (PostgreSQL keeps microseconds) keep the string.
 */
export function parseDateTime(value: string): number | undefined {
  const match = RFC3339.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const local = new Date(0);
  local.setUTCFullYear(fields[0], fields[1] - 1, fields[2]); // setUTCFullYear: Date.UTC would read years 0..99 as 1900..1999
  local.setUTCHours(fields[3], fields[4], fields[5], 0);
  const roundTrip = [
    local.getUTCFullYear(),
    local.getUTCMonth() + 1,
    local.getUTCDate(),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
  ];
  if (fields[0] < 1 || roundTrip.some((field, i) => field !== fields[i])) return undefined;

  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  if (Number(offsetMinutes) > 59 || Math.abs(offset) > MAX_OFFSET_MINUTES) return undefined;
  const millis = fraction ? Number(fraction.slice(1, 4).padEnd(3, '0')) : 0;
  const instant = local.getTime() + millis - offset * 60_000;
  return instant >= EARLIEST && instant <= LATEST ? instant : undefined;
}

export const isDateTime = (value: unknown): value is string => typeof value === 'string' && parseDateTime(value) !== undefined;

/** A date-time field (see `parseDateTime`); a mismatch is a 422 naming the field. */
export const IsDateTime = (options: ValidationOptions = {}) =>
  ValidateBy(
    {
      name: 'isDateTime',
      // Named so the OpenAPI document can state the longest value it accepts (common/swagger/validation-limits.ts).
      constraints: [RFC3339],
      validator: {
        validate: (value: unknown) => isDateTime(value),
        defaultMessage: buildMessage((each) => `${each}$property must be an RFC 3339 date-time such as ${DATE_TIME_EXAMPLE}`, options),
      },
    },
    options,
  );
