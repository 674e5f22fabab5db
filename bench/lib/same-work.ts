/** Names shared by the runner and the same-work server (`bench/same-work-server.ts`). */

/** The Redis list the accept-baseline pushes to (not a Bull key: the service's queue checks never see it). */
export const ACCEPT_BASELINE_LIST = 'accept-baseline';
/** The PostgreSQL application_name of that server's pool: the runner tells its backends from the service's by it. */
export const SAME_WORK_APPLICATION = 'agent-bench-same-work';
