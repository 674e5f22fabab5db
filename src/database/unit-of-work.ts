import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The one transaction mechanism. A service wraps a change in `run(work)`; every repository call inside it, TypeORM
 * (`SqlService.repository`) and prepared SQL (`SqlService.rows`) alike, runs in that transaction, found through an
 * AsyncLocalStorage: no handle is passed around. Nested `run` joins the outer transaction.
 */
@Injectable()
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (the caller's when there is one); commits when it resolves, rolls back if it throws. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }

  /** The current transaction's manager, or undefined outside one. */
  get transaction(): EntityManager | undefined {
    return this.current.getStore();
  }

  /** The current transaction's manager, else the pool's. */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }
}
