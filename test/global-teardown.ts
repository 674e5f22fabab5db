// Loaded outside Jest's module mapping, like global-setup.ts: no project imports.
import { Redis } from 'ioredis';
import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const run = process.env.TEST_RUN_ID;
  if (!run) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`agent_${run}_%`]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `t:${run}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
