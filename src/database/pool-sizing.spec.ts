import { MAINTENANCE_CONNECTIONS, planPool } from './pool-sizing.js';

describe('database pool sizing', () => {
  const postgresDefaults = { maxConnections: 100, reserved: 3 };

  it('derives a pool that lets the expected processes fit in PostgreSQL defaults (5 × 21 = 105 did not)', () => {
    const plan = planPool(postgresDefaults, 5);
    expect(plan.available).toBe(100 - 3 - MAINTENANCE_CONNECTIONS);
    expect(plan.size).toBe(17);
    expect(plan.derived).toBe(17);
    expect(plan.needed).toBe(5 * 18);
    expect(plan.needed).toBeLessThanOrEqual(plan.available);
  });

  it('stays between 2 and 20 connections', () => {
    expect(planPool(postgresDefaults, 1).size).toBe(20);
    expect(planPool({ maxConnections: 1000, reserved: 3 }, 2).size).toBe(20);
    expect(planPool(postgresDefaults, 60).size).toBe(2);
  });

  it('keeps an explicit DATABASE_POOL_SIZE and reports what it needs, fitting or not', () => {
    const plan = planPool(postgresDefaults, 5, 20);
    expect(plan.size).toBe(20);
    expect(plan.derived).toBe(17);
    expect(plan.needed).toBe(105);
    expect(plan.needed).toBeGreaterThan(plan.available);
  });
});
