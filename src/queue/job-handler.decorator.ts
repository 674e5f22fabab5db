import type { JobAttempt, JobName, JobPayload } from './job-map.js';

const HANDLES = Symbol('job handler');

/** The job `@JobHandler` declared a method the handler of, if any. */
export function jobHandledBy(method: object): JobName | undefined {
  return (method as { [HANDLES]?: JobName })[HANDLES];
}

/**
 * Marks a provider method as the handler of one job of the job map (src/queue/job-map.ts); the compiler checks that
 * the method takes that job's payload. JobRunner runs it: as a Bull worker for queued jobs, on its timer for periodic
 * tasks. Start-up fails unless every job has exactly one handler where it runs (see `handlerProblems`).
 */
export function JobHandler<K extends JobName>(
  name: K,
): <T extends (payload: JobPayload<K>, attempt: JobAttempt) => unknown>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<T>,
) => void {
  return (_target, _key, descriptor) => {
    (descriptor.value as unknown as { [HANDLES]?: JobName })[HANDLES] = name;
  };
}
