import pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/** Connections kept free for what is not the service: psql sessions, backups, migrations run by hand, monitoring. */
export const MAINTENANCE_CONNECTIONS = 5;
const POOL_FLOOR = 2;
const POOL_CEILING = 20;

/** What the PostgreSQL server allows: `max_connections` less the slots only superusers (and reserved roles) may use. */
export interface ServerLimits {
  maxConnections: number;
  reserved: number;
}

export interface PoolPlan {
  /** The pool size this process uses. */
  size: number;
  /** What the server's limits give each of the expected processes (the default when DATABASE_POOL_SIZE is unset). */
  derived: number;
  /** Connections the expected processes open at most: each its pool plus the revocation listener's one. */
  needed: number;
  /** Connections the service may use: max_connections − reserved − MAINTENANCE_CONNECTIONS. */
  available: number;
}

/**
 * The pool size (docs/deploy.md, "Capacity"): `processes · (pool + 1) + maintenance ≤ max_connections − reserved`,
 * so that every process of the deployment gets its connections; between 2 and 20 (past 20 a process gains nothing:
 * one Node.js event loop cannot keep more busy). An explicit DATABASE_POOL_SIZE wins, and may not fit.
 */
export function planPool(limits: ServerLimits, processes: number, explicit?: number): PoolPlan {
  const available = limits.maxConnections - limits.reserved - MAINTENANCE_CONNECTIONS;
  const derived = Math.min(POOL_CEILING, Math.max(POOL_FLOOR, Math.floor(available / processes) - 1));
  const size = explicit ?? derived;
  return { size, derived, needed: processes * (size + 1), available };
}

/** Reads the server's connection limits over one short connection. */
export async function readServerLimits(url: string): Promise<ServerLimits> {
  const client = new pg.Client({ connectionString: url, application_name: 'agent-service-preflight' });
  await client.connect();
  try {
    const { rows } = await client.query<{ max: number; reserved: number }>(
      `SELECT current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int
                + coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) AS reserved`,
    );
    return { maxConnections: rows[0]!.max, reserved: rows[0]!.reserved };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Sizes this process's pool from the server's limits and DATABASE_EXPECTED_PROCESSES (before the pool is created), and
 * warns when the deployment as configured would need more connections than the server has.
 */
export async function sizeDatabasePool(config: AppConfig, logger: Logger): Promise<PoolPlan> {
  const limits = await readServerLimits(config.db.url);
  const plan = planPool(limits, config.db.expectedProcesses, config.db.explicitPoolSize);
  config.db.poolSize = plan.size;
  const fields = {
    poolSize: plan.size,
    expectedProcesses: config.db.expectedProcesses,
    maxConnections: limits.maxConnections,
    reservedConnections: limits.reserved,
    needed: plan.needed,
    available: plan.available,
  };
  if (plan.needed > plan.available) {
    logger.warn(
      fields,
      `${config.db.expectedProcesses} processes × (pool ${plan.size} + 1 listener) = ${plan.needed} PostgreSQL connections, over the ` +
        `${plan.available} that max_connections ${limits.maxConnections} leaves: lower DATABASE_POOL_SIZE (${plan.derived} fits), ` +
        'raise max_connections, or put PgBouncer in front (docs/deploy.md)',
    );
  } else {
    logger.info(fields, 'database pool sized');
  }
  return plan;
}
