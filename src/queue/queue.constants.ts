/** Bull queues of the service, registered once by QueueModule; processors live in each feature's worker module. */
export enum QueueName {
  /** Outbound channel messages: one job per `channel_messages` row to hand to the provider (docs/channels.md). */
  ChannelsOutbound = 'channels-outbound',
  /** Outbound webhooks: one job per attempt at a `webhook_deliveries` row (docs/webhooks.md). */
  Webhooks = 'webhooks',
  /** Thread retention: one repeatable job, one run at a time across instances (docs/governance.md). */
  Retention = 'retention',
  /** Evaluation runs: one job per `evaluations` row (docs/evaluations.md). */
  Evaluations = 'evaluations',
}

/** Job names, per queue. */
export enum JobName {
  DeliverChannelMessage = 'deliver',
  DeliverWebhook = 'deliver-webhook',
  RunRetention = 'run-retention',
  RunEvaluation = 'run-evaluation',
}

/** The payload of each job, by name. Jobs carry ids only: PostgreSQL holds the state. */
export interface JobPayloads {
  /** The outbound `channel_messages` row (also the job id: one job per message). */
  [JobName.DeliverChannelMessage]: { messageId: string };
  /** Wakes a webhook delivery slot for a due attempt at a `webhook_deliveries` row (`attempt`: attempts made before). */
  [JobName.DeliverWebhook]: { deliveryId: string; attempt: number };
  /** One pass over every project with a thread retention. */
  [JobName.RunRetention]: Record<string, never>;
  /** The `evaluations` row to run (also the job id: one job per run). */
  [JobName.RunEvaluation]: { evaluationId: string };
}
