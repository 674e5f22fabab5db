import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { migrations } from './migrations/index.js';

/**
 * The one options object, used by the app, the CLI, the migration runner and the tests. `entities`: the TypeORM
 * entity classes (src/entities.ts, given by the composition root); migrations need none.
 */
export function dataSourceOptions(config: AppConfig, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.db.url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    extra: { max: config.db.poolSize, application_name: 'agent-service' },
    logging: false,
  };
}

// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_KEY = 7_240_113_001;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so replicas that start together
 * migrate once and the others wait, then find nothing to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

export function createDataSource(config: AppConfig): DataSource {
  return new DataSource(dataSourceOptions(config));
}

/** Opens a short-lived connection, migrates, closes: what start-up and `npm run migration:run` do. */
export async function migrate(config: AppConfig): Promise<string[]> {
  const dataSource = await createDataSource(config).initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
