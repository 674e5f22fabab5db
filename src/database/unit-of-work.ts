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
  private readonly committed = new WeakMap<EntityManager, Array<() => void | Promise<void>>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (the caller's when there is one); commits when it resolves, rolls back if it throws. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    const callbacks: Array<() => void | Promise<void>> = [];
    const result = await this.dataSource.transaction((manager) => {
      this.committed.set(manager, callbacks);
      return this.current.run(manager, work);
    });
    for (const callback of callbacks) await callback();
    return result;
  }

  /**
   * Runs `callback` once the current transaction has committed (at once outside a transaction; never when it rolls
   * back): for telling the outside world (a queue, caches) about rows the transaction wrote. `run` resolves after the
   * callbacks, in order. The callback must not throw or reject.
   */
  afterCommit(callback: () => void | Promise<void>): void {
    const manager = this.current.getStore();
    const callbacks = manager && this.committed.get(manager);
    if (callbacks) callbacks.push(callback);
    else void callback();
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
