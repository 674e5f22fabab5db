/** The message types an endpoint can subscribe to (docs/webhooks.md, "Event types"). */
export const WEBHOOK_EVENT_TYPES = [
  'turn.completed',
  'event.completed',
  'event.failed',
  'thread.created',
  'version.published',
  'channel.message.status',
  'thread.handoff_requested',
  'thread.handoff_accepted',
  'thread.handoff_released',
  'thread.message_created',
  'message.feedback',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The `webhook-id` of a delivery: stable across its retries and redeliveries. */
export const webhookMessageId = (deliveryId: string): string => `msg_${deliveryId}`;

/** How much of a receiver's answer is read (and kept, as text, in the delivery log). */
export const RESPONSE_BODY_LIMIT = 1024;
/** Attempts kept in a delivery's log (the newest). */
export const ATTEMPT_LOG_LIMIT = 50;

/** The wire code of a creation refused by the endpoint caps (docs/webhooks.md, "Limits"). */
export const WEBHOOK_LIMIT_REACHED = 'webhook_limit_reached';
