import { ValidationError } from '../../common/errors/app-error.js';
import { parseUsageRange, planUsage } from './usage-range.js';

describe('usage ranges', () => {
  it('rounds sub-millisecond bounds inward to whole milliseconds', () => {
    expect(parseUsageRange('2026-03-05T00:00:00.0001Z', '2026-03-05T23:59:59.9999Z')).toEqual({
      from: Date.parse('2026-03-05T00:00:00.001Z'),
      to: Date.parse('2026-03-05T23:59:59.999Z'),
    });
  });

  it('rejects from after to', () => {
    expect(() => parseUsageRange('2026-03-05T00:00:01Z', '2026-03-05T00:00:00Z')).toThrow(ValidationError);
  });

  it('reads whole days from the roll-up and the partial ends from interactions', () => {
    const plan = planUsage(parseUsageRange('2026-03-02T17:00:00Z', '2026-03-09T06:00:00Z'));
    expect(plan.days).toEqual({ start: '2026-03-03', end: '2026-03-09' });
    expect(plan.head).toEqual({ from: new Date('2026-03-02T17:00:00Z'), before: new Date('2026-03-03T00:00:00Z') });
    expect(plan.tail).toEqual({ from: new Date('2026-03-09T00:00:00Z'), to: new Date('2026-03-09T06:00:00Z') });
    expect(plan.direct).toBeNull();
  });

  it('counts a day ending at 23:59:59.999 as whole and needs no tail', () => {
    const plan = planUsage(parseUsageRange('2026-03-03T00:00:00Z', '2026-03-07T23:59:59.999Z'));
    expect(plan).toEqual({ days: { start: '2026-03-03', end: '2026-03-08' }, head: null, tail: null, direct: null });
  });

  it('answers a range without a whole day from interactions alone', () => {
    const plan = planUsage(parseUsageRange('2026-03-04T20:00:00Z', '2026-03-05T04:00:00Z'));
    expect(plan.days).toBeNull();
    expect(plan.direct).toEqual({ from: new Date('2026-03-04T20:00:00Z'), to: new Date('2026-03-05T04:00:00Z') });
  });

  it.each(['2024-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2024-01-01T00:00:00+99:00', '2024-01-01T00:00:00+16:00'])(
    'refuses the impossible date-time %s',
    (value) => {
      expect(() => parseUsageRange(value, undefined)).toThrow(ValidationError);
      expect(() => parseUsageRange(undefined, value)).toThrow(ValidationError);
    },
  );

  it('writes the day after 9999-12-31 as PostgreSQL reads it', () => {
    expect(planUsage(parseUsageRange('9999-12-30T00:00:00Z', '9999-12-31T23:59:59.999Z')).days).toEqual({
      start: '9999-12-30',
      end: '10000-01-01',
    });
  });

  it('leaves open ends open', () => {
    expect(planUsage(parseUsageRange(undefined, undefined))).toEqual({
      days: { start: null, end: null },
      head: null,
      tail: null,
      direct: null,
    });
  });
});
