import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, type EntityTarget, type ObjectLiteral, type Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { UnitOfWork } from './unit-of-work.js';

/**
 * What repositories reach the database through, and only they: TypeORM repositories for CRUD (`repository(Entity)`)
 * and prepared SQL for hot paths and facets (`rows`/`one`; a named statement is prepared once per connection). Both
 * join the current UnitOfWork transaction when there is one; outside one, each call takes a pooled connection.
 */
@Injectable()
export class SqlService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** A TypeORM repository bound to the current transaction (or to the pool outside one). */
  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.unitOfWork.manager.getRepository(entity);
  }

  async rows<T extends QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<T[]> {
    const query = name ? { name, text, values } : { text, values };
    // The driver's own client, from the public QueryRunner.connect(): TypeORM's query() cannot name a statement.
    const transaction = this.unitOfWork.transaction?.queryRunner;
    if (transaction) return (await ((await transaction.connect()) as PoolClient).query<T>(query)).rows;
    // Outside a transaction, straight to the driver's pg pool (it takes and returns a client itself): a TypeORM
    // QueryRunner per statement cost an allocation, an error listener added and removed, and two more awaits.
    return (await this.pool.query<T>(query)).rows;
  }

  /** The pg pool TypeORM's Postgres driver made from the configured options (`PostgresDriver.master`). */
  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  async one<T extends QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<T | undefined> {
    return (await this.rows<T>(text, values, name))[0];
  }
}
