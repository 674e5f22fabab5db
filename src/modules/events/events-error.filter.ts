import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ErrorFilter } from '../../common/http/error.filter.js';
import { RouteIndex } from '../../common/http/route-index.js';
import { EventsErrorCode, EventStoreUnavailableError } from './events.errors.js';
import { isStoreUnavailable } from './failure-kinds.js';

/**
 * The webhook's routes: when PostgreSQL cannot be reached anywhere on the way (the credential lookup of a key
 * not in the cache included), the answer is 502 `upstream_unavailable` (retry with backoff, nothing was queued),
 * not a 500. Everything else is rendered by the service's one error filter.
 */
@Catch()
export class EventsErrorFilter implements ExceptionFilter {
  private readonly fallback = new ErrorFilter(new RouteIndex(), () => EventsErrorCode.PayloadTooLarge);

  catch(exception: unknown, host: ArgumentsHost): void {
    this.fallback.catch(isStoreUnavailable(exception) ? new EventStoreUnavailableError() : exception, host);
  }
}
