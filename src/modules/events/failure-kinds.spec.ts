import { DatabaseError } from 'pg';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { UpstreamTimeoutError, UpstreamUnavailableError } from '../runtime/runtime.errors.js';
import { isRefusedData, isStoreUnavailable, isTransient } from './failure-kinds.js';

function pgError(code: string, message = 'refused'): DatabaseError {
  return Object.assign(new DatabaseError(message, 0, 'error'), { code });
}

describe('failure kinds', () => {
  it.each([
    ['22021 invalid byte sequence (NUL)', pgError('22021')],
    ['22P05 untranslatable character (lone surrogate in json)', pgError('22P05')],
    ['22001 value too long', pgError('22001')],
    ['54001 stack depth limit exceeded / statement too complex', pgError('54001')],
  ])('%s: refused data, never transient, never "store unavailable"', (_, error) => {
    expect([isRefusedData(error), isStoreUnavailable(error), isTransient(error)]).toEqual([true, false, false]);
  });

  it.each([
    ['08006 connection failure', pgError('08006')],
    ['57P01 admin shutdown', pgError('57P01')],
    ['53300 too many connections', pgError('53300')],
    ['40001 serialization failure', pgError('40001')],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['TypeORM wrapping a connection failure', Object.assign(new Error('wrapped'), { driverError: pgError('08003') })],
  ])('%s: the store is unavailable, worth retrying', (_, error) => {
    expect([isStoreUnavailable(error), isTransient(error), isRefusedData(error)]).toEqual([true, true, false]);
  });

  it('retries provider unavailability and timeouts only; 4xx, engine errors, bugs and refused data fail at once', () => {
    expect(isTransient(new UpstreamUnavailableError('provider answered 503'))).toBe(true);
    expect(isTransient(new UpstreamTimeoutError('provider did not answer in time'))).toBe(true);
    for (const permanent of [
      new ValidationError([{ field: 'text', message: 'too long' }]),
      new NotFoundError('Agent'),
      new RangeError('Invalid string length'),
      new TypeError('x is undefined'),
      pgError('42703'),
      pgError('23505'),
    ]) {
      expect(isTransient(permanent)).toBe(false);
    }
  });
});
