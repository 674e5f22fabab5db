import type { IncomingMessage } from 'node:http';
import { IdempotencyKeyInvalidError } from './idempotency.errors.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** Characters of a key at most (after unquoting). */
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

/** Visible ASCII and space: what an sf-string may hold (RFC 8941 3.3.3), and all a key may be made of. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The key of the `Idempotency-Key` header (IETF httpapi-idempotency-key-header), or undefined when the request has
 * none. The draft makes the value a Structured Field string (`"8e03978e-…"`); the unquoted form most clients send
 * (`8e03978e-…`) is accepted as the same key. Refused with 422 `validation_error` (field `Idempotency-Key`): the
 * header sent twice, an empty key, one over 255 characters, and any character outside visible ASCII and space —
 * control characters and bytes over 0x7f, which PostgreSQL (NUL) or HTTP (obs-text) would refuse or mangle.
 */
export function idempotencyKeyOf(request: { headers: IncomingMessage['headers']; raw: IncomingMessage }): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (Array.isArray(value) || headerLines(request.raw) > 1) {
    throw new IdempotencyKeyInvalidError('Send one Idempotency-Key header, not several');
  }
  return parseIdempotencyKey(value);
}

export function parseIdempotencyKey(value: string): string {
  const trimmed = value.trim();
  if (!PRINTABLE_ASCII.test(trimmed)) {
    throw new IdempotencyKeyInvalidError('Idempotency-Key must contain only visible ASCII characters and spaces');
  }
  const key = trimmed.startsWith('"') ? unquote(trimmed) : trimmed;
  if (key.length === 0) throw new IdempotencyKeyInvalidError('Idempotency-Key must not be empty');
  if (key.length > IDEMPOTENCY_KEY_MAX_CHARS) {
    throw new IdempotencyKeyInvalidError(`Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_CHARS} characters`);
  }
  return key;
}

/** An sf-string: `"`, characters with `\"` and `\\` escaped, `"`. */
function unquote(quoted: string): string {
  let key = '';
  for (let i = 1; i < quoted.length; i += 1) {
    const c = quoted[i]!;
    if (c === '\\') {
      const next = quoted[i + 1];
      if (next !== '"' && next !== '\\') throw new IdempotencyKeyInvalidError('Idempotency-Key has an invalid escape in its quoted string');
      key += next;
      i += 1;
    } else if (c === '"') {
      if (i !== quoted.length - 1) throw new IdempotencyKeyInvalidError('Idempotency-Key has characters after its quoted string');
      return key;
    } else key += c;
  }
  throw new IdempotencyKeyInvalidError('Idempotency-Key has an unterminated quoted string');
}

function headerLines(raw: IncomingMessage): number {
  let lines = 0;
  for (let i = 0; i < raw.rawHeaders.length; i += 2) if (raw.rawHeaders[i]!.toLowerCase() === IDEMPOTENCY_KEY_HEADER) lines += 1;
  return lines;
}
