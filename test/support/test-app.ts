import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { createLogger } from '../../src/common/logging/logger.js';
import { Factory } from '../factories/factory.js';
import { HttpClient } from './http.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  http: HttpClient;
  baseUrl: string;
  dataSource: DataSource;
  factory: Factory;
  /** Empties every table and this worker's Redis keys. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real AppModule through the same `createApp()` as production, listening on a free loopback port.
 * `env` overrides configuration for this app only (e.g. a rate limit, a base path).
 * Two apps in one process are not two independent instances: Passport registers strategies process-wide, so both
 * authenticate through the last app's AuthService and its cache. Tests of cross-instance behaviour (revocation
 * broadcast) run the second instance as a child process (test/e2e/revocation.e2e-spec.ts).
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig(env);
  const app = await createApp(config, createLogger(config));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const dataSource = app.get(DataSource);
  // Every table of the schema (not only those with an entity), the migrations' own bookkeeping excepted.
  const rows: Array<{ name: string }> = await dataSource.query(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
  );
  const tables = rows.map((r) => `"${r.name}"`).join(', ');
  return {
    app,
    config,
    baseUrl,
    http: new HttpClient(baseUrl),
    dataSource,
    factory: new Factory(dataSource),
    async reset() {
      await truncateAll(dataSource, tables);
      await deleteRedisKeys(config.redis.url, `${config.redis.keyPrefix}:*`);
    },
    close: () => app.close(),
  };
}

/**
 * TRUNCATE locks every table in turn; the app's own background work (sweeper, processors) may hold a row lock
 * on one and wait for another, which PostgreSQL resolves by failing one side with a deadlock. Ours retries.
 */
async function truncateAll(dataSource: DataSource, tables: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await dataSource.query(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
    }
  }
}

export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
