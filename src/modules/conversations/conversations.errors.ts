/** The turn of this event is already recorded (another attempt of the event wrote it first). */
export class TurnAlreadyRecordedError extends Error {
  constructor(readonly eventId: string) {
    super(`The turn of event ${eventId} is already recorded`);
    this.name = 'TurnAlreadyRecordedError';
  }
}
