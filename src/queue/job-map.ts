import type { JobOptions } from 'bull';
import type { AppConfig } from '../config/app-config.js';

/** Bull queues of the service, registered once by QueueModule. */
export enum QueueName {
  /** Outbound channel messages: one job per `channel_messages` row to hand to the provider (docs/channels.md). */
  ChannelsOutbound = 'channels-outbound',
  /** Outbound webhooks: one job per attempt at a `webhook_deliveries` row (docs/webhooks.md). */
  Webhooks = 'webhooks',
  /** Thread retention: one repeatable job, one run per tick across instances (docs/governance.md). */
  Retention = 'retention',
}

/**
 * Every job of the service: queued work (enqueued with JobQueue, run by a Bull worker) and periodic tasks (run by
 * JobRunner's timers). The values of queued jobs are their Bull job names, so jobs already in Redis keep their handler.
 */
export enum JobName {
  DeliverChannelMessage = 'deliver',
  DeliverWebhook = 'deliver-webhook',
  RunRetention = 'run-retention',
  SweepChannelsInbound = 'channels.sweep-inbound',
  SweepChannelsOutbound = 'channels.sweep-outbound',
  SweepWebhooks = 'webhooks.sweep',
  ReloadWebhookSubscriptions = 'webhooks.reload-subscriptions',
  CleanIdempotencyKeys = 'idempotency.clean',
  SampleEventsBacklog = 'events.sample-backlog',
  RenewEventLeases = 'events.renew-leases',
  BeatTurnHeartbeats = 'streaming.beat-heartbeats',
  PingSessions = 'streaming.ping-sessions',
}

/** The payload of each queued job. Jobs carry ids only: PostgreSQL holds the state. */
export interface JobPayloads {
  /** The outbound `channel_messages` row (also the job id: one job per message). */
  [JobName.DeliverChannelMessage]: { messageId: string };
  /** Wakes a webhook delivery slot for a due attempt at a `webhook_deliveries` row (`attempt`: attempts made before). */
  [JobName.DeliverWebhook]: { deliveryId: string; attempt: number };
  /** One pass over every project with a thread retention. */
  [JobName.RunRetention]: Record<string, never>;
}

/** A handler's payload: a queued job's, nothing for a periodic task. */
export type JobPayload<K extends JobName> = K extends keyof JobPayloads ? JobPayloads[K] : undefined;

/** Which attempt of a queued job this is (a handler that throws asks for the next one while attempts are left). */
export interface JobAttempt {
  /** Attempts made before this one. */
  made: number;
  /** Attempts allowed in all. */
  allowed: number;
}

/**
 * Where a job's handler must be: `workers` in the worker modules (processes with WORKERS=on, and `npm run worker`),
 * and nowhere else; `every process` in a module every process loads.
 */
export type RunsOn = 'workers' | 'every process';

/** Work someone enqueues (JobQueue.enqueue), run by Bull with these options on every enqueue. */
export interface QueuedJob {
  kind: 'queued';
  runsOn: 'workers';
  queue: QueueName;
  /** Jobs of this name one process runs at once. */
  concurrency: (config: AppConfig) => number;
  /** Attempts, backoff and what Redis keeps of finished jobs; callers add only a job id or a delay. */
  options: (config: AppConfig) => JobOptions;
}

/**
 * A task every process that has its handler runs on a timer: every `every` ms plus up to `jitter` × that at random
 * (so that replicas do not run it in step), one run at a time in the process (a tick while one runs is skipped),
 * stopped once the modules have shut down (in-flight runs are awaited).
 */
export interface PeriodicTask {
  kind: 'periodic';
  runsOn: RunsOn;
  every: (config: AppConfig) => number;
  jitter: number;
}

/**
 * A task that runs once per tick across all replicas: a Bull repeatable job on `queue`, whose repeat key (name +
 * `repeatId` + interval) every worker schedules and Bull keeps once; whichever worker is free takes each tick.
 */
export interface ReplicatedTask {
  kind: 'replicated';
  runsOn: 'workers';
  queue: QueueName;
  repeatId: string;
  every: (config: AppConfig) => number;
  options: (config: AppConfig) => JobOptions;
}

export type JobSpec = QueuedJob | PeriodicTask | ReplicatedTask;

/** Jobs someone may enqueue. */
export type QueuedJobName = keyof JobPayloads;

/** Sweeps look for what a crash or an unreachable Redis left behind; replicas share the work (SKIP LOCKED, job ids). */
const SWEEP_JITTER = 0.1;

/** Options, concurrency, intervals and placement of every job: the one place they are set. */
export const JOB_MAP: { readonly [K in JobName]: K extends QueuedJobName ? QueuedJob | ReplicatedTask : PeriodicTask } = {
  // One delivery attempt per job; a retryable failure throws for the next attempt (docs/channels.md).
  [JobName.DeliverChannelMessage]: {
    kind: 'queued',
    runsOn: 'workers',
    queue: QueueName.ChannelsOutbound,
    concurrency: () => 4,
    options: (config) => ({
      attempts: config.channels.outboundAttempts,
      backoff: { type: 'exponential', delay: config.channels.outboundBackoffMs },
      removeOnComplete: true,
      removeOnFail: true,
    }),
  },
  // A wake-up of one delivery slot; retries are new delayed jobs scheduled by the delivery itself (docs/webhooks.md).
  [JobName.DeliverWebhook]: {
    kind: 'queued',
    runsOn: 'workers',
    queue: QueueName.Webhooks,
    concurrency: (config) => config.webhooks.concurrency,
    options: () => ({ attempts: 1, removeOnComplete: true, removeOnFail: true }),
  },
  // A run stops starting batches after 90 % of the interval, so the next tick's run does not overlap it.
  [JobName.RunRetention]: {
    kind: 'replicated',
    runsOn: 'workers',
    queue: QueueName.Retention,
    repeatId: 'thread-retention',
    every: (config) => config.retention.intervalSeconds * 1000,
    options: () => ({ attempts: 1, removeOnComplete: true, removeOnFail: 20 }),
  },
  [JobName.SweepChannelsInbound]: { kind: 'periodic', runsOn: 'workers', every: () => 10_000, jitter: SWEEP_JITTER },
  [JobName.SweepChannelsOutbound]: { kind: 'periodic', runsOn: 'workers', every: () => 30_000, jitter: SWEEP_JITTER },
  [JobName.SweepWebhooks]: {
    kind: 'periodic',
    runsOn: 'workers',
    every: (config) => config.webhooks.sweepIntervalMs,
    jitter: SWEEP_JITTER,
  },
  // Subscription changes arrive as notices; the full reload only repairs a missed one.
  [JobName.ReloadWebhookSubscriptions]: { kind: 'periodic', runsOn: 'every process', every: () => 60_000, jitter: SWEEP_JITTER },
  [JobName.CleanIdempotencyKeys]: {
    kind: 'periodic',
    runsOn: 'every process',
    every: (config) => config.idempotency.cleanupIntervalMs,
    jitter: SWEEP_JITTER,
  },
  // Process-local readings and keep-alives: no jitter, their period is what bounds their staleness.
  [JobName.SampleEventsBacklog]: { kind: 'periodic', runsOn: 'every process', every: () => 1000, jitter: 0 },
  [JobName.RenewEventLeases]: {
    kind: 'periodic',
    runsOn: 'workers',
    every: (config) => Math.max(100, Math.floor(config.events.leaseMs / 3)),
    jitter: 0,
  },
  [JobName.BeatTurnHeartbeats]: {
    kind: 'periodic',
    runsOn: 'every process',
    every: (config) => config.streaming.heartbeatIntervalMs,
    jitter: 0,
  },
  [JobName.PingSessions]: { kind: 'periodic', runsOn: 'every process', every: () => 30_000, jitter: 0 },
};
