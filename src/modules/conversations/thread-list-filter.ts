/**
 * What the thread list can be filtered by (spec "Thread list filters"): the threads controller validates the wire
 * form (its query DTO implements this), the store turns it into SQL (thread-filters.ts).
 */
export interface ThreadListFilter {
  project_id?: string;
  user_id?: string;
  external_id?: string;
  /** One value: created at or after it; two: the inclusive range. */
  created?: string[];
  tool?: string[];
  rule?: string[];
  param?: string[];
  agent_id?: string[];
  runtime_version?: string;
  /** The tag (`vN.R`) of the revision that answered the thread's latest turn. */
  version_tag?: string[];
}

/** `key:value`, `key:*`, or `key` followed by >=, <=, > or < and a number (up to 15 digits, 6 decimals). */
export const PARAM_FILTER_PATTERN = /^([A-Za-z0-9_.-]{1,100})(?::(.{1,200})|(>=|<=|>|<)(-?\d{1,15}(?:\.\d{1,6})?))$/s;

/** The runtime generation a `runtime_version` selector reads: `1` → v1, anything else → v2. */
export function selectedRuntime(runtimeVersion: string | undefined): 'v1' | 'v2' {
  return runtimeVersion === undefined || runtimeVersion === '1' ? 'v1' : 'v2';
}
