import type { Channel } from '../channels.constants.js';

/** A message to hand to the provider: numbers in E.164, the adapter adds any channel addressing. */
export interface OutboundChannelMessage {
  channel: Channel;
  from: string;
  to: string;
  body: string;
  /** Where the provider should report delivery status changes (omitted when no public URL is configured). */
  statusCallbackUrl?: string;
}

/** What the provider said when it accepted a message. */
export interface ProviderAcceptance {
  providerMessageId: string;
  /** The provider's own status word (e.g. `queued`, `sent`). */
  providerStatus: string;
}

/** An inbound message from the phone, normalised (E.164 numbers, no channel prefixes). */
export interface InboundChannelMessage {
  providerMessageId: string;
  /** The end user's phone (our thread's `phone_number`). */
  from: string;
  /** Our sender number the user wrote to. */
  to: string;
  body: string;
}

/** A failed hand-off. `retryable` failures (network, timeouts, 429, 5xx) are tried again with backoff. */
export class ChannelProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ChannelProviderError';
  }
}

/**
 * A messaging provider behind the channels: sends outbound messages and authenticates and reads its
 * inbound webhooks. One implementation today (a Twilio-compatible HTTP API); the interface is what the
 * rest of the module depends on.
 */
export interface ChannelProvider {
  readonly name: string;
  /** False when no provider is configured: outbound messages are then recorded as undelivered. */
  readonly configured: boolean;
  send(message: OutboundChannelMessage): Promise<ProviderAcceptance>;
  /** Whether an inbound webhook call was signed by the provider. `url` is the full public URL it called. */
  verifyWebhook(url: string, params: Record<string, unknown>, signature: string | undefined): boolean;
  /**
   * Reads an inbound webhook body. A missing or malformed message id or number is a 422 naming the provider's
   * field (a message id that could be stored, numbers in E.164); the body text is returned as sent.
   */
  parseInbound(channel: Channel, params: Record<string, unknown>): InboundChannelMessage;
  /** Reads a delivery-status callback body; a 422 naming the provider's field when it is not one. */
  parseStatus(params: Record<string, unknown>): ProviderStatusReport;
}

/** A delivery-status report for an outbound message, mapped onto our statuses. */
export interface ProviderStatusReport {
  providerMessageId: string;
  status: 'sent' | 'delivered' | 'undelivered';
  error: string | null;
}

/** DI token of the configured provider. */
export const CHANNEL_PROVIDER = Symbol('ChannelProvider');
