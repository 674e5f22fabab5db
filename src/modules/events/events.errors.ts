import { AppError, NotFoundError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { NO_ACTIVE_VERSION_MESSAGE } from '../messaging/messaging.errors.js';

/** The webhook's own wire codes (spec "Errors"). */
export enum EventsErrorCode {
  NoActiveVersion = 'webhooks.no_active_version',
  NoRuntimeVersion = 'webhooks.no_runtime_version',
  PayloadTooLarge = 'webhooks.payload_too_large',
}

/** Seconds a shed or refused caller is asked to wait before retrying. */
export const EVENTS_RETRY_AFTER_SECONDS = 5;

export class EventNotFoundError extends NotFoundError {
  constructor() {
    super('Event');
  }
}

/** Messaging's NoActiveVersionError as the webhook answers it (its own code), at accept or when the event runs. */
export class WebhookNoActiveVersionError extends AppError {
  constructor() {
    super(404, EventsErrorCode.NoActiveVersion, NO_ACTIVE_VERSION_MESSAGE);
  }
}

export class NoRuntimeVersionError extends AppError {
  constructor(schemaVersion: number) {
    super(
      404,
      EventsErrorCode.NoRuntimeVersion,
      `The agent's active version uses bundle schema_version ${schemaVersion}, which this service's engines no longer run; republish it first`,
    );
  }
}

/** 502: the event store could not be reached, so the event was not queued; retry with backoff. */
export class EventStoreUnavailableError extends AppError {
  constructor() {
    super(502, ErrorCode.UpstreamUnavailable, 'The event could not be queued: the event store is unreachable; retry with backoff');
  }
}

/** 503: ingestion is shedding load (backlog over its bound) or the instance is shutting down. */
export class EventsUnavailableError extends AppError {
  constructor(reason: string) {
    super(
      503,
      ErrorCode.InternalError,
      `Event ingestion is temporarily unavailable (${reason}); retry after the Retry-After delay`,
      undefined,
      {
        'retry-after': String(EVENTS_RETRY_AFTER_SECONDS),
      },
    );
  }
}
