import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header value for one message: `v1,<base64 HMAC-SHA256 of "msgId.timestamp.body">` per
 * secret, space-separated (several secrets while a rotated one still signs). Signed by the `standardwebhooks`
 * reference implementation, so receivers verifying with any Standard Webhooks library agree.
 */
export function signPayload(secrets: string[], msgId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(msgId, timestamp, body)).join(' ');
}
