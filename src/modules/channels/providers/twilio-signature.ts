import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed by the auth token, over the
 * full URL the provider called followed by every POST parameter sorted by name, each as name + value
 * (a repeated parameter contributes name + value for each of its values, values sorted).
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, unknown>): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    const values = Array.isArray(value) ? value.map(String).sort() : [value === undefined || value === null ? '' : String(value)];
    for (const v of values) data += key + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Constant-time comparison of a received signature with the expected one. */
export function signatureMatches(expected: string, received: string | undefined): boolean {
  if (!received) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}
