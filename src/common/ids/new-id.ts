import { randomBytes } from 'node:crypto';

/** Pattern every resource id matches on the wire (spec convention 2). */
export const ID_PATTERN = /^[0-9a-fA-F]{24}$/;

// Random bytes are drawn in blocks: one syscall per 512 ids instead of one per id.
const BLOCK = 8 * 512;
let pool = randomBytes(BLOCK);
let offset = BLOCK;

/** 24 lowercase hex characters, time-ordered: 4 bytes of Unix seconds + 8 random bytes. */
export function newId(now: number = Date.now()): string {
  if (offset >= BLOCK) {
    pool = randomBytes(BLOCK);
    offset = 0;
  }
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  const random = pool.toString('hex', offset, offset + 8);
  offset += 8;
  return seconds + random;
}
