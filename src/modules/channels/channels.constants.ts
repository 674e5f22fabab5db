/** The messaging channels a conversation can run on (the `{channel}` path segment). */
export const CHANNELS = ['whatsapp', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export const isChannel = (value: string): value is Channel => (CHANNELS as readonly string[]).includes(value);

/** E.164: a plus, a non-zero country digit, 7 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;
export const E164_MESSAGE = '$property must be an E.164 phone number such as +15550100000';

/** The external id a channel thread carries: how the events pipeline names the conversation. */
export const channelExternalId = (channel: Channel, threadId: string) => `${channel}:${threadId}`;

/** Status of a channel message (and of a channel thread: its opening message's status). */
export type ChannelMessageStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'received';
export type ChannelMessageKind = 'opening' | 'inbound' | 'reply';

export const CHANNEL_LABEL: Record<Channel, string> = { whatsapp: 'WhatsApp', sms: 'SMS' };
