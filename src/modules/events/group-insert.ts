import type { NewEvent } from './events.repository.js';

interface Waiting {
  event: NewEvent;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupInsertOptions {
  /** Statements in flight at once; newer events wait for a free lane. */
  lanes?: number;
  /** Rows per statement at most. */
  maxBatch?: number;
  /**
   * Whether a failure concerns the statement as a whole (the store is unreachable) rather than possibly one of
   * its rows. Any other failure of a batch is retried row by row, so that only the refused row fails.
   */
  failsEveryRow?: (error: unknown) => boolean;
}

/**
 * Group commit for the accept path: while `lanes` inserts are in flight, new events wait and then go together in
 * the next statement (up to `maxBatch` rows). Under light load every event is inserted at once, alone; under heavy
 * load one commit (one WAL flush) covers many events. Each caller's promise settles when its own row has
 * committed or failed, and a statement is atomic, so an event is never half-accepted.
 *
 * Rows of different callers (different tenants) share a statement, so one row PostgreSQL refuses would fail all
 * of them: callers validate rows before they join a batch, and should a batch still fail for a reason that may be
 * one row's, its rows are written again one at a time, in order, within the same lane.
 */
export class GroupInsert {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private readonly lanes: number;
  private readonly maxBatch: number;
  private readonly failsEveryRow: (error: unknown) => boolean;

  constructor(
    private readonly write: (events: NewEvent[]) => Promise<void>,
    options: GroupInsertOptions = {},
  ) {
    this.lanes = options.lanes ?? 4;
    this.maxBatch = options.maxBatch ?? 200;
    this.failsEveryRow = options.failsEveryRow ?? (() => false);
  }

  insert(event: NewEvent): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ event, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.lanes && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight += 1;
      void this.commit(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async commit(batch: Waiting[]): Promise<void> {
    try {
      await this.write(batch.map((w) => w.event));
      batch.forEach((w) => w.resolve());
    } catch (error) {
      if (batch.length === 1 || this.failsEveryRow(error)) batch.forEach((w) => w.reject(error));
      else await this.commitOneByOne(batch);
    }
  }

  private async commitOneByOne(batch: Waiting[]): Promise<void> {
    for (const [index, waiting] of batch.entries()) {
      try {
        await this.write([waiting.event]);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
        if (this.failsEveryRow(error)) {
          // The store went away meanwhile: the rest would each wait for the same failure.
          batch.slice(index + 1).forEach((w) => w.reject(error));
          return;
        }
      }
    }
  }
}
