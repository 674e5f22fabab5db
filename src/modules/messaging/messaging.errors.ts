import { AppError } from '../../common/errors/app-error.js';

export enum MessagingErrorCode {
  NoActiveVersion = 'no_active_version',
}

export const NO_ACTIVE_VERSION_MESSAGE = 'The agent has no published version; publish one to let it answer';

/** The agent has no published (live) version, so it cannot answer yet (spec convention 5). */
export class NoActiveVersionError extends AppError {
  constructor() {
    super(404, MessagingErrorCode.NoActiveVersion, NO_ACTIVE_VERSION_MESSAGE);
  }
}
