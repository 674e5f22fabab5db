import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Direct SQL on TypeORM's own pg pool, for hot paths where the ORM's per-query overhead shows in the
 * benchmark (credential lookups, the messaging turn). Named statements are prepared once per connection.
 */
@Injectable()
export class SqlService {
  private readonly pool: Pool;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
  }

  async rows<T extends QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<T[]> {
    const result = await this.pool.query<T>(name ? { name, text, values } : { text, values });
    return result.rows;
  }

  async one<T extends QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<T | undefined> {
    return (await this.rows<T>(text, values, name))[0];
  }

  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
