import { AppError } from '../../common/errors/app-error.js';

export enum MessagingErrorCode {
  NoActiveVersion = 'no_active_version',
}

/** The agent has no published (live) version, so it cannot answer yet (spec convention 5). */
export class NoActiveVersionError extends AppError {
  constructor(code: string = MessagingErrorCode.NoActiveVersion) {
    super(404, code, 'The agent has no published version; publish one to let it answer');
  }
}
