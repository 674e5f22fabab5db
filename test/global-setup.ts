// Jest loads this file outside its ESM module mapping: it imports no project module (relative imports fail here).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';

const ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://agent_service:agent_service@127.0.0.1:5432/postgres';

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Migrates a template database once, then clones it per Jest worker (seconds, not a migration run per file).
 * Names carry this run's id, so concurrent runs on one machine never share a database or Redis keys.
 * Workers read their names from the variables set here (see test/env.ts).
 */
export default async function globalSetup(config: { maxWorkers: number }): Promise<void> {
  process.env.NODE_ENV ??= 'test';
  if (process.env.NODE_ENV !== 'test') throw new Error('Refusing to run tests with NODE_ENV other than test');
  const run = `r${process.pid}x${Date.now().toString(36).slice(-4)}`;
  process.env.TEST_RUN_ID = run;
  process.env.TEST_DATABASE_URL_PATTERN = databaseUrl(`agent_${run}_wWORKERID_test`);
  process.env.TEST_REDIS_PREFIX_PATTERN = `t:${run}:wWORKERID`;
  process.env.TEST_ADMIN_DATABASE_URL = ADMIN_DATABASE_URL;

  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await dropStaleDatabases(admin);
    const template = `agent_${run}_tpl_test`;
    await admin.query(`CREATE DATABASE "${template}"`);
    migrate(databaseUrl(template));
    for (let worker = 1; worker <= Math.max(1, config.maxWorkers); worker += 1) {
      await admin.query(`CREATE DATABASE "agent_${run}_w${worker}_test" WITH TEMPLATE "${template}"`);
    }
  } finally {
    await admin.end();
  }
}

/** Through the built migration runner (`scripts/test.sh` builds first), the same code production runs. */
function migrate(url: string): void {
  const runner = 'dist/src/database/migrate.js';
  if (!existsSync(runner)) throw new Error(`${runner} is missing: run \`npm run build\` (npm test does)`);
  execFileSync(process.execPath, [runner], {
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Databases of earlier runs whose process is gone (a killed run cannot clean up after itself). */
async function dropStaleDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname ~ '^agent_r[0-9]+x[a-z0-9]+_(tpl|w[0-9]+)_test$'`,
  );
  for (const { datname } of rows) {
    const pid = Number(/^agent_r(\d+)x/.exec(datname)?.[1]);
    if (pid && isAlive(pid)) continue;
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
