import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { Job } from 'bull';
import { AppConfig } from '../config/app-config.js';
import { discoverHandlers, handlerProblems, handlersByJob, JobHandlersError, type FoundHandler } from './job-handlers.js';
import { JOB_MAP, type JobName, type ReplicatedTask } from './job-map.js';
import { JobQueue } from './job-queue.js';
import { PeriodicTimer } from './periodic-timer.js';

/** How long shutdown waits for periodic runs in flight. */
const STOP_WAIT_MS = 5000;

/**
 * Runs every job of the job map through its `@JobHandler`. At module init it checks that the handlers match the map
 * (start-up fails otherwise: JobHandlersError lists what is wrong). At bootstrap, once every module is initialised,
 * it starts a Bull worker per queued job, schedules the replicated tasks (Bull repeatable jobs) and starts the timers
 * of the periodic tasks. The timers stop in `beforeApplicationShutdown`, which Nest calls on this global module after
 * the feature modules' drains (events finishing, streamed turns settling: their leases and heartbeats are kept up until
 * then), their runs in flight awaited, before any pool or connection closes (`onApplicationShutdown`, where Bull also
 * waits for its active jobs).
 */
@Injectable()
export class JobRunner implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  private handlers = new Map<JobName, FoundHandler>();
  private readonly timers: Array<[JobName, PeriodicTimer]> = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly jobs: JobQueue,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const found = discoverHandlers(this.discovery, this.scanner);
    const problems = handlerProblems(found, this.config.workersEnabled);
    if (problems.length > 0) throw new JobHandlersError(problems);
    this.handlers = handlersByJob(found);
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const [name, handler] of this.handlers) {
      const spec = JOB_MAP[name];
      if (spec.kind !== 'periodic') {
        const concurrency = spec.kind === 'queued' ? spec.concurrency(this.config) : 1;
        this.jobs
          .queue(spec.queue)
          .process(name, concurrency, async (job: Job) =>
            handler.handle(job.data, { made: job.attemptsMade, allowed: job.opts.attempts ?? 1 }),
          )
          .catch((error: unknown) => this.logger.error({ err: error, job: name }, 'job worker stopped'));
      }
      if (spec.kind === 'replicated') {
        try {
          await this.schedule(name);
        } catch (error) {
          // Redis down at start: the other instances (or the next start) schedule it; nothing is lost meanwhile.
          this.logger.error({ err: error, job: name }, 'could not schedule a replicated task');
        }
      } else if (spec.kind === 'periodic') {
        const timer = new PeriodicTimer(
          spec.every(this.config),
          spec.jitter,
          () => handler.handle(undefined, { made: 0, allowed: 1 }),
          (error) => this.logger.warn({ err: error, job: name }, 'periodic task failed; it runs again on the next tick'),
        );
        timer.start();
        this.timers.push([name, timer]);
      }
    }
  }

  /** Stops the timers; waits for the runs in flight, STOP_WAIT_MS at most (a run stuck on a dead connection). */
  async beforeApplicationShutdown(): Promise<void> {
    const running = new Set(this.timers.map(([name]) => name));
    const stopped = Promise.all(this.timers.splice(0).map(([name, timer]) => timer.stop().then(() => running.delete(name))));
    let wait: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (wait = setTimeout(() => resolve('late'), STOP_WAIT_MS)));
    if ((await Promise.race([stopped, late])) === 'late') {
      this.logger.warn({ jobs: [...running] }, 'periodic tasks still running at shutdown; not waiting for them');
    }
    clearTimeout(wait);
  }

  /**
   * Registers a replicated task's repeatable job (idempotent across instances: same name, id and interval make one
   * repeat key); a schedule with another interval (a changed setting) is removed. Returns the repeat key.
   */
  async schedule(name: JobName): Promise<string> {
    const spec = JOB_MAP[name] as ReplicatedTask;
    const queue = this.jobs.queue(spec.queue);
    const every = spec.every(this.config);
    for (const job of await queue.getRepeatableJobs()) {
      if (job.name === name && Number(job.every) !== every) await queue.removeRepeatableByKey(job.key);
    }
    const job = await queue.add(name, {}, { ...spec.options(this.config), repeat: { every }, jobId: spec.repeatId });
    return String(job.opts.repeat && 'key' in job.opts.repeat ? job.opts.repeat.key : spec.repeatId);
  }
}
