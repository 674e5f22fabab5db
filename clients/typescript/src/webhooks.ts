import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './schema.js';

type Body<T> = T extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** One delivery of the outbound webhooks (docs/webhooks.md), typed by its `type`. */
export type WebhookEvent = { [K in keyof webhooks]: Body<webhooks[K]['post']> }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];
/** The delivery of one event type, e.g. `WebhookEventOf<'turn.completed'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** Request headers as Node (`IncomingHttpHeaders`) or fetch (`Headers`) gives them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export { WebhookVerificationError };

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`) over the
 * raw request body with the endpoint's `whsec_…` secret, and returns the parsed, typed body. Throws
 * `WebhookVerificationError` when a header is missing, no signature matches, or the timestamp is more than five
 * minutes away (a replay). Pass the body exactly as received: parsing and re-serialising JSON breaks the signature.
 */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookEvent {
  const flat: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> =
    headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return new Webhook(secret).verify(body, flat) as WebhookEvent;
}
