/** Names shared by the runner and the same-work server (`bench/same-work-server.ts`). */

/** The pub/sub channel (under the service's Redis prefix) the accept-baseline publishes its wake-ups on: nobody listens. */
export const ACCEPT_BASELINE_CHANNEL = 'accept-baseline:due';
/**
 * The first hex digits of the accept-baseline's event ids (then `newId()`'s time-ordered rest): the runner deletes
 * its rows by them. `newId()` starts with the Unix seconds in hex (`69…` in 2026; `ba5e…` only in 2069), so no service id does.
 */
export const ACCEPT_BASELINE_ID_PREFIX = 'ba5e';
/** The PostgreSQL application_name of that server's pool: the runner tells its backends from the service's by it. */
export const SAME_WORK_APPLICATION = 'agent-bench-same-work';
