import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from './data-source.js';
import { SqlModule } from './sql.module.js';

/** PostgreSQL through TypeORM, with the entity classes the composition root gives (src/entities.ts). */
@Module({})
export class DatabaseModule {
  static forRoot(entities: DataSourceOptions['entities']): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config, entities), retryAttempts: 3, retryDelay: 1000 }),
        }),
        // Repositories' database access and the unit of work (global), wherever the database is (API, worker, CLI).
        SqlModule,
      ],
    };
  }
}
