import type { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { jobHandledBy } from './job-handler.decorator.js';
import { JOB_MAP, type JobAttempt, type JobName, type JobSpec } from './job-map.js';

/** A `@JobHandler` method found on a provider. */
export interface FoundHandler {
  /** The job it names (a string: a cast could name a job the map does not have). */
  name: string;
  /** `Class.method`, for the start-up error. */
  owner: string;
  handle: (payload: unknown, attempt: JobAttempt) => unknown;
}

/** Start-up refused: some job has no handler or several, or a handler names no job or sits where it must not run. */
export class JobHandlersError extends Error {
  constructor(readonly problems: string[]) {
    super(`The job handlers do not match the job map (src/queue/job-map.ts):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'JobHandlersError';
  }
}

/** The `@JobHandler` methods of every provider instance. */
export function discoverHandlers(discovery: DiscoveryService, scanner: MetadataScanner): FoundHandler[] {
  const found: FoundHandler[] = [];
  for (const wrapper of discovery.getProviders()) {
    const instance: unknown = wrapper.instance;
    if (!instance || typeof instance !== 'object') continue;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const method of scanner.getAllMethodNames(prototype)) {
      const handler = (instance as Record<string, unknown>)[method];
      if (typeof handler !== 'function') continue;
      const name = jobHandledBy(handler);
      if (name === undefined) continue;
      found.push({
        name,
        owner: `${prototype.constructor.name}.${method}`,
        handle: (payload, attempt) => (handler as FoundHandler['handle']).call(instance, payload, attempt),
      });
    }
  }
  return found;
}

/**
 * What is wrong with these handlers for this process (empty: nothing). Every job has exactly one handler where it
 * runs: a `workers` job in processes with workers and in no other (its handler belongs in the feature's worker
 * module), an `every process` job in every process; and no handler names a job the map does not have.
 */
export function handlerProblems(
  found: FoundHandler[],
  workersEnabled: boolean,
  map: Readonly<Record<string, JobSpec>> = JOB_MAP,
): string[] {
  const problems: string[] = [];
  const byName = new Map<string, string[]>();
  for (const handler of found) {
    if (!Object.hasOwn(map, handler.name)) {
      problems.push(`${handler.owner} handles '${handler.name}', which is not a job of the job map`);
      continue;
    }
    byName.set(handler.name, [...(byName.get(handler.name) ?? []), handler.owner]);
  }
  for (const [name, spec] of Object.entries(map)) {
    const owners = byName.get(name) ?? [];
    const expected = spec.runsOn === 'every process' || workersEnabled ? 1 : 0;
    if (owners.length === expected) continue;
    if (expected === 0) {
      problems.push(
        `'${name}' runs on workers only, but this process (WORKERS=off) has handlers: ${owners.join(', ')}; move them to a worker module`,
      );
    } else if (owners.length === 0) {
      problems.push(`'${name}' has no handler (declare one with @JobHandler on a provider ${where(spec)})`);
    } else {
      problems.push(`'${name}' has ${owners.length} handlers, one is allowed: ${owners.join(', ')}`);
    }
  }
  return problems;
}

function where(spec: JobSpec): string {
  return spec.runsOn === 'workers' ? 'of a worker module' : 'of a module every process loads';
}

/** The handlers by job, once `handlerProblems` found nothing wrong. */
export function handlersByJob(found: FoundHandler[]): Map<JobName, FoundHandler> {
  return new Map(found.map((handler) => [handler.name as JobName, handler]));
}
