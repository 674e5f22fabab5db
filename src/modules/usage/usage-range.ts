import type { UsagePlan } from '../conversations/conversations.types.js';
import { ValidationError } from '../../common/errors/app-error.js';
import { parseDateTime } from '../../common/validation/date-time.js';

const DAY_MS = 86_400_000;

/** An inclusive range of interaction creation instants, in whole milliseconds (created_at is timestamptz(3)). */
export interface UsageRange {
  from: number | null;
  to: number | null;
}

/**
 * Parses `created_from` / `created_to`. created_at has millisecond precision, so `created_at >= from` equals
 * `created_at >= from` rounded up to the millisecond, and `<= to` equals `<= to` rounded down: both bounds become
 * exact millisecond instants.
 */
export function parseUsageRange(createdFrom: string | undefined, createdTo: string | undefined): UsageRange {
  const from = createdFrom === undefined ? null : toMillis(createdFrom, 'created_from', 'up');
  const to = createdTo === undefined ? null : toMillis(createdTo, 'created_to', 'down');
  if (from !== null && to !== null && from > to) throw ValidationError.field('created_to', 'created_to must not be before created_from');
  return { from, to };
}

function toMillis(value: string, field: string, round: 'up' | 'down'): number {
  const ms = parseDateTime(value);
  if (ms === undefined) throw ValidationError.field(field, `${field} must be an RFC 3339 date-time`);
  // parseDateTime keeps milliseconds and drops finer digits: round up when any dropped digit is not zero.
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return round === 'up' && /[1-9]/.test(fraction.slice(3)) ? ms + 1 : ms;
}

export function planUsage(range: UsageRange): UsagePlan {
  const { from, to } = range;
  // First whole day starts at or after `from`; whole days end (exclusive) at or before to + 1 ms.
  const fullStart = from === null ? null : Math.ceil(from / DAY_MS) * DAY_MS;
  const fullEnd = to === null ? null : Math.floor((to + 1) / DAY_MS) * DAY_MS;
  if (from !== null && to !== null && fullStart! >= fullEnd!) {
    return { days: null, head: null, tail: null, direct: { from: new Date(from), to: new Date(to) } };
  }
  return {
    days: { start: fullStart === null ? null : isoDate(fullStart), end: fullEnd === null ? null : isoDate(fullEnd) },
    head: from !== null && from < fullStart! ? { from: new Date(from), before: new Date(fullStart!) } : null,
    tail: to !== null && fullEnd! <= to ? { from: new Date(fullEnd!), to: new Date(to) } : null,
    direct: null,
  };
}

/** YYYY-MM-DD as PostgreSQL reads it: the day after 9999-12-31 is 10000-01-01, which JS writes as +010000-01-01. */
const isoDate = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return iso.slice(0, iso.indexOf('T')).replace(/^\+0*/, '');
};
