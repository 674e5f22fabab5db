import { NotFoundError } from '../../common/errors/app-error.js';

/** The turn of this event is already recorded (another attempt of the event wrote it first). */
export class TurnAlreadyRecordedError extends Error {
  constructor(readonly eventId: string) {
    super(`The turn of event ${eventId} is already recorded`);
    this.name = 'TurnAlreadyRecordedError';
  }
}

/**
 * The thread was deleted (erasure or retention) between the turn's read and its write: the send answers 404, as
 * for a thread id that never existed (docs/governance.md).
 */
export class ThreadGoneError extends NotFoundError {
  constructor() {
    super('Thread');
  }
}
