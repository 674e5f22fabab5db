import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorFilter } from '../../common/errors/error.filter.js';
import { RouteIndex } from '../../common/http/route-index.js';
import { EventsErrorCode, EventStoreUnavailableError } from './events.errors.js';

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Connection ended|Cannot use a pool after calling end|connect ECONNREFUSED/i;

/** Whether an error means PostgreSQL could not be reached (as opposed to a bug or a bad statement). */
export function isStoreUnreachable(error: unknown): boolean {
  if (error instanceof AppError || error instanceof HttpException || !(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))) return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/**
 * The webhook's routes: when PostgreSQL cannot be reached anywhere on the way (the credential lookup of a key
 * not in the cache included), the answer is 502 `upstream_unavailable` (retry with backoff, nothing was queued),
 * not a 500. Everything else is rendered by the service's one error filter.
 */
@Catch()
export class EventsErrorFilter implements ExceptionFilter {
  private readonly fallback = new ErrorFilter(new RouteIndex(), () => EventsErrorCode.PayloadTooLarge);

  catch(exception: unknown, host: ArgumentsHost): void {
    this.fallback.catch(isStoreUnreachable(exception) ? new EventStoreUnavailableError() : exception, host);
  }
}
