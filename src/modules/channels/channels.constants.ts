/** The messaging channels a conversation can run on (the `{channel}` path segment). */
export const CHANNELS = ['whatsapp', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export const isChannel = (value: string): value is Channel => (CHANNELS as readonly string[]).includes(value);

/** E.164: a plus, a non-zero country digit, 7 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;
export const E164_MESSAGE = '$property must be an E.164 phone number such as +15550100000';

/** Bull queue of outbound channel messages (one job per `channel_messages` row, job id = row id). */
export const CHANNELS_OUTBOUND_QUEUE = 'channels-outbound';
export const DELIVER_JOB = 'deliver';

/** Status of a channel message (and of a channel thread: its opening message's status). */
export type ChannelMessageStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'received';
export type ChannelMessageKind = 'opening' | 'inbound' | 'reply';

export const CHANNEL_LABEL: Record<Channel, string> = { whatsapp: 'WhatsApp', sms: 'SMS' };

/** Job on the same queue: wait for an inbound message's event turn, then record and queue the reply. */
export const REPLY_JOB = 'reply';
/** Custom backoff of reply jobs (registered with the queue): 250 ms doubling, capped at 5 s. */
export const REPLY_BACKOFF = 'reply-poll';
export const replyPollDelay = (attemptsMade: number) => Math.min(250 * 2 ** Math.max(0, attemptsMade - 1), 5000);
