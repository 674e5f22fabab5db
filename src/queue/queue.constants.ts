/** Bull queues of the service. Each feature module registers its own with `BullModule.registerQueue`. */
export enum QueueName {
  /** Events webhook: one job per event to process (docs/events.md). */
  Events = 'events',
}

/** Job names, per queue. */
export enum JobName {
  ProcessEvent = 'process-event',
}

/** The payload of each job, by name. Jobs carry ids only: PostgreSQL holds the state. */
export interface JobPayloads {
  /** `trace`: the W3C trace context of the accept (traceparent, tracestate), present while tracing is on. */
  [JobName.ProcessEvent]: { eventId: string; trace?: Record<string, string> };
}
