import { AppError } from '../../common/errors/app-error.js';

export enum MessagingErrorCode {
  NoActiveVersion = 'no_active_version',
}

/**
 * The thread's control does not allow this (docs/handoff.md): another operator holds it, it is not waiting, it is not
 * the caller's to write or release, or a rerun while a human holds it.
 */
export const HANDOFF_CONFLICT = 'handoff_conflict';

export const NO_ACTIVE_VERSION_MESSAGE = 'The agent has no published version; publish one to let it answer';

/** The agent has no published (live) version, so it cannot answer yet (spec convention 5). */
export class NoActiveVersionError extends AppError {
  constructor() {
    super(404, MessagingErrorCode.NoActiveVersion, NO_ACTIVE_VERSION_MESSAGE);
  }
}
