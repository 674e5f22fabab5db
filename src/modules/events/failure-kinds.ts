import { HttpException } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { AppError } from '../../common/errors/app-error.js';

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection ended|Cannot use a pool after calling end|connect ECONNREFUSED|Connection is closed|max retries per request|not queryable/i;

/**
 * SQLSTATE classes that say the store is unavailable for now, whatever the statement: 08 connection exception,
 * 40 transaction rollback (serialization failure, deadlock), 53 insufficient resources (too many connections,
 * disk full), 57 operator intervention (shutdown, statement timeout), 58 system error (I/O).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);

/**
 * SQLSTATE classes that refuse the data itself, so the same statement fails again however often it is tried:
 * 22 data exception (NUL, a lone surrogate in json, a value too long), 54 program limit exceeded (stack depth
 * on deeply nested JSON, statement too complex).
 */
const REFUSED_DATA_CLASSES = new Set(['22', '54']);

/** The SQLSTATE of a PostgreSQL error, whether raised by pg directly or wrapped by TypeORM (`driverError`). */
function sqlState(error: unknown): string | undefined {
  if (error instanceof DatabaseError) return error.code;
  const driverError = (error as { driverError?: unknown } | null)?.driverError;
  return driverError instanceof DatabaseError ? driverError.code : undefined;
}

/** PostgreSQL (or Redis) could not be reached or could not serve now; the same work may succeed later. */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof AppError || error instanceof HttpException || !(error instanceof Error)) return false;
  const state = sqlState(error);
  if (state) return UNAVAILABLE_CLASSES.has(state.slice(0, 2));
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/** PostgreSQL refused the values themselves (the caller's data, not the store's state): never worth retrying. */
export function isRefusedData(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && REFUSED_DATA_CLASSES.has(state.slice(0, 2));
}

/**
 * Whether another attempt at an event could succeed: the model provider was unavailable or slow (502/503/504),
 * or the store was unavailable. Everything else is deterministic — a 4xx (agent deleted, input refused), data
 * PostgreSQL refuses, an engine error such as a failed allocation, a bug — and would fail the same way again.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof AppError) return error.status === 502 || error.status === 503 || error.status === 504;
  return isStoreUnavailable(error);
}
