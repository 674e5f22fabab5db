import type { NewEvent } from './events.repository.js';

interface Waiting {
  event: NewEvent;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the accept path: while `lanes` inserts are in flight, new events wait and then go together in
 * the next statement (up to `maxBatch` rows). Under light load every event is inserted at once, alone; under heavy
 * load one commit (one WAL flush) covers many events. Each caller's promise settles when its own statement has
 * committed or failed, and a statement is atomic, so an event is never half-accepted.
 */
export class GroupInsert {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly write: (events: NewEvent[]) => Promise<void>,
    private readonly lanes = 4,
    private readonly maxBatch = 200,
  ) {}

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
      this.write(batch.map((w) => w.event)).then(
        () => batch.forEach((w) => w.resolve()),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      ).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }
}
