import { ValidationError } from '../../../common/errors/app-error.js';
import type { AppConfig } from '../../../config/app-config.js';
import { E164, type Channel } from '../channels.constants.js';
import {
  ChannelProviderError,
  type ChannelProvider,
  type InboundChannelMessage,
  type OutboundChannelMessage,
  type ProviderAcceptance,
  type ProviderStatusReport,
} from './channel-provider.js';
import { signatureMatches, twilioSignature } from './twilio-signature.js';

const WHATSAPP_PREFIX = 'whatsapp:';

/** WhatsApp addresses carry a `whatsapp:` prefix on this API; SMS numbers are plain E.164. */
export const toProviderAddress = (channel: Channel, number: string) => (channel === 'whatsapp' ? `${WHATSAPP_PREFIX}${number}` : number);

function fromProviderAddress(channel: Channel, address: string): string | undefined {
  let number = address.trim();
  if (number.toLowerCase().startsWith(WHATSAPP_PREFIX)) {
    if (channel !== 'whatsapp') return undefined;
    number = number.slice(WHATSAPP_PREFIX.length);
  } else if (channel === 'whatsapp') {
    return undefined;
  }
  return E164.test(number) ? number : undefined;
}

function parseJson(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Provider message ids are short printable ASCII (Twilio: `SM` + 32 hex): the dedupe key, stored as is. */
const MESSAGE_SID = /^[\x21-\x7e]{1,64}$/;
const ERROR_CODE = /^\d{1,10}$/;

function messageSid(value: string | undefined): string {
  if (value === undefined || !MESSAGE_SID.test(value)) {
    throw ValidationError.field('MessageSid', 'MessageSid is required: 1 to 64 printable ASCII characters');
  }
  return value;
}

/**
 * Adapter for a Twilio-compatible Messages API: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`
 * (form-encoded `To`, `From`, `Body`; HTTP Basic auth sid:token), inbound webhooks signed with
 * `X-Twilio-Signature`.
 */
export class TwilioProvider implements ChannelProvider {
  readonly name = 'twilio';
  private readonly settings: AppConfig['channels'];

  constructor(config: AppConfig) {
    this.settings = config.channels;
  }

  get configured(): boolean {
    return this.settings.provider !== undefined;
  }

  async send(message: OutboundChannelMessage): Promise<ProviderAcceptance> {
    const provider = this.settings.provider;
    if (!provider) throw new ChannelProviderError('No channel provider is configured', false);
    const url = `${provider.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(provider.accountSid)}/Messages.json`;
    const form = new URLSearchParams({
      To: toProviderAddress(message.channel, message.to),
      From: toProviderAddress(message.channel, message.from),
      Body: message.body,
    });
    if (message.statusCallbackUrl) form.set('StatusCallback', message.statusCallbackUrl);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${provider.accountSid}:${provider.authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `timed out after ${this.settings.timeoutMs} ms`
          : (error as Error).message;
      throw new ChannelProviderError(`The provider could not be reached: ${reason}`, true);
    }
    const raw = await response.text().catch(() => '');
    const body = parseJson(raw);
    if (!response.ok) {
      const detail = [text(body.message), body.code !== undefined ? `code ${String(body.code)}` : undefined].filter(Boolean).join(', ');
      const retryable = response.status >= 500 || response.status === 429 || response.status === 408;
      throw new ChannelProviderError(`The provider answered HTTP ${response.status}${detail ? ` (${detail})` : ''}`, retryable);
    }
    const sid = text(body.sid);
    if (!sid) throw new ChannelProviderError('The provider accepted the message but returned no sid', true);
    return { providerMessageId: sid, providerStatus: text(body.status) ?? 'queued' };
  }

  verifyWebhook(url: string, params: Record<string, unknown>, signature: string | undefined): boolean {
    const provider = this.settings.provider;
    if (!provider) return false;
    return signatureMatches(twilioSignature(provider.authToken, url, params), signature);
  }

  parseInbound(channel: Channel, params: Record<string, unknown>): InboundChannelMessage {
    const sid = messageSid(text(params.MessageSid) ?? text(params.SmsMessageSid) ?? text(params.SmsSid));
    const from = fromProviderAddress(channel, text(params.From) ?? '');
    const to = fromProviderAddress(channel, text(params.To) ?? '');
    if (!from || !to) {
      throw ValidationError.field(
        from ? 'To' : 'From',
        `From and To are required, as ${channel === 'whatsapp' ? 'whatsapp:+E.164' : 'E.164'} addresses`,
      );
    }
    return { providerMessageId: sid, from, to, body: text(params.Body) ?? '' };
  }

  parseStatus(params: Record<string, unknown>): ProviderStatusReport {
    const sid = messageSid(text(params.MessageSid) ?? text(params.SmsSid));
    const raw = (text(params.MessageStatus) ?? text(params.SmsStatus))?.toLowerCase();
    // Own keys only: `__proto__` or `constructor` must not read as a status.
    const status = raw !== undefined && Object.hasOwn(STATUS_MAP, raw) ? STATUS_MAP[raw] : undefined;
    if (!raw || !status) {
      throw ValidationError.field('MessageStatus', 'MessageStatus is required: one of sent, delivered, read, undelivered, failed');
    }
    // Twilio's error codes are numbers; anything else is dropped rather than stored.
    const code = text(params.ErrorCode);
    const error =
      status === 'undelivered' ? `The provider reported ${raw}${code && ERROR_CODE.test(code) ? ` (error code ${code})` : ''}` : null;
    return { providerMessageId: sid, status, error };
  }
}

/** Twilio's message statuses that move ours on; queued/accepted/sending say nothing new. */
const STATUS_MAP: Record<string, ProviderStatusReport['status'] | undefined> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'undelivered',
};
