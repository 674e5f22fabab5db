import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import { CardResponseDto } from '../../messaging/dto/message-response.dto.js';
import type { WebhookEventType } from '../webhooks.constants.js';

// The bodies the service POSTs to subscribed endpoints (docs/webhooks.md, "Event types and payloads"), one class per
// event type: the outbox builds `data` with these types, and the OpenAPI document lists them under `webhooks`.

const nullableId = (description: string) => ApiProperty({ type: String, nullable: true, pattern: '^[0-9a-f]{24}$', description });

export class TurnUsageDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Tokens the model read' }) input_tokens: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Tokens the model wrote' }) output_tokens: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Input tokens read from the provider cache' }) cache_read_tokens: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Output tokens spent reasoning' }) reasoning_tokens: number;
}

export class TurnReplyDto {
  @ApiId('The reply message') message_id: string;
  @ApiProperty({ description: 'The reply text' }) text: string;
  @ApiProperty({ type: [CardResponseDto], description: 'Cards of the reply, as in the send answer' }) cards: CardResponseDto[];
  @ApiProperty({ type: [String], description: 'Follow-up prompts offered with the reply' }) followup_suggestions: string[];
  @ApiProperty({ description: 'Link to the most relevant source of the reply; empty when none' }) url: string;
  @ApiProperty({ description: "The live version's greeting" }) welcome_message: string;
}

export class TurnCompletedDataDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The turn') interaction_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiId('The version that answered') version_id: string;
  @ApiProperty({ example: 'v1.2', description: 'The revision tag that answered' }) version_tag: string;
  @ApiProperty({ enum: ['api', 'rerun', 'event', 'channel'], description: 'The surface the turn came from' }) source:
    'api' | 'rerun' | 'event' | 'channel';
  @nullableId('The events-webhook event the turn answers') event_id: string | null;
  @ApiProperty({ description: "The end user's id" }) user_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The end user's message (null: an image only)" }) user_text: string | null;
  @ApiProperty({ type: TurnUsageDto }) usage: TurnUsageDto;
  @ApiProperty({ type: TurnReplyDto }) reply: TurnReplyDto;
  @ApiProperty({ format: 'date-time', description: 'When the turn was recorded' }) created_at: string;
}

export class ThreadCreatedDataDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ description: "The end user's id" }) user_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The caller's thread id (events webhook), else null" }) external_id:
    string | null;
  @ApiProperty({ description: 'The thread title (from its first message)' }) title: string;
  @ApiProperty({ type: String, nullable: true, enum: ['whatsapp', 'sms', null], description: 'The channel of a channel conversation' })
  channel: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the thread was created' }) created_at: string;
}

export class EventCompletedDataDto {
  @ApiId('The event') event_id: string;
  @ApiProperty({ enum: ['completed'], description: 'The final state' }) status: 'completed';
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The caller's thread id" }) external_thread_id: string | null;
  @ApiId('The thread the event was answered in') thread_id: string;
  @ApiId('The turn that answered it') interaction_id: string;
  @ApiProperty({ type: String, nullable: true, enum: [null], description: 'Always null: it completed' }) error: null;
}

export class EventFailedDataDto {
  @ApiId('The event') event_id: string;
  @ApiProperty({ enum: ['failed'], description: 'The final state' }) status: 'failed';
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The caller's thread id" }) external_thread_id: string | null;
  @ApiProperty({ type: String, nullable: true, enum: [null], description: 'Always null: no turn was recorded' }) thread_id: null;
  @ApiProperty({ type: String, nullable: true, enum: [null], description: 'Always null: no turn was recorded' }) interaction_id: null;
  @ApiProperty({ description: 'Why it failed, led by a wire code', example: 'upstream_unavailable: the model provider did not answer' })
  error: string;
}

export class VersionPublishedDataDto {
  @ApiId('The agent') agent_id: string;
  @ApiId('The version now live') version_id: string;
  @ApiId('The revision now live') revision_id: string;
  @ApiProperty({ example: 'v2.0', description: 'The revision tag now live' }) version_tag: string;
  @ApiProperty({ enum: ['publish', 'rename'], description: 'A publish, or a rename that re-published the live revision' })
  reason: 'publish' | 'rename';
}

export class ChannelMessageStatusDataDto {
  @ApiId('The outbound message') message_id: string;
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ enum: ['whatsapp', 'sms'], description: 'The channel it was sent on' }) channel: string;
  @ApiProperty({ enum: ['sent', 'delivered', 'undelivered'], description: 'Its new status' }) status: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why it was not delivered' }) error: string | null;
}

/** A thread's control after a handoff change (docs/handoff.md). */
export class ThreadHandoffDataDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ description: "The end user's id" }) user_id: string;
  @ApiProperty({ enum: ['agent', 'pending', 'human'], description: 'Who holds the thread now' }) control: 'agent' | 'pending' | 'human';
  @ApiProperty({ enum: ['agent', 'pending', 'human'], description: 'Who held it before' }) previous: 'agent' | 'pending' | 'human';
  @ApiProperty({
    enum: ['requested', 'accepted', 'takeover', 'released', 'timed_out'],
    description: 'What happened: `takeover` is an accept without a request; `timed_out` a request nobody accepted in time',
  })
  change: string;
  @nullableId('The operator (user id) holding the thread') assignee: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why a human was asked for (`end_user`, `rule: <code>`, `decline`, `agent: …`, or the given reason)',
  })
  reason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the handoff was asked for' }) requested_at:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an operator accepted it (or took over)' })
  accepted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it went back to the agent' }) released_at:
    string | null;
}

/** A message written while the thread was not under agent control: the end user's (recorded, not answered) or an operator's. */
export class ThreadMessageCreatedDataDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiId('The message') message_id: string;
  @ApiProperty({ enum: ['user', 'operator'], description: 'Who wrote it' }) role: 'user' | 'operator';
  @ApiProperty({ description: "The author: the end user's id, or the operator's user id" }) author_id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The text (null: an image only)' }) text: string | null;
  @ApiProperty({ enum: ['pending', 'human'], description: 'Who held the thread' }) control: 'pending' | 'human';
  @ApiProperty({ format: 'date-time', description: 'When it was written' }) created_at: string;
}

/** An end user's rating of an agent message (docs/evaluations.md). */
export class MessageFeedbackDataDto {
  @ApiId('The rated agent message') message_id: string;
  @ApiId('Its thread') thread_id: string;
  @ApiId('The turn that wrote it') interaction_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiId('The version that wrote it') version_id: string;
  @ApiProperty({ example: 'v2.1', description: 'The revision that wrote it' }) version_tag: string;
  @ApiProperty({ description: "The thread's end user" }) user_id: string;
  @ApiProperty({ enum: ['up', 'down'], description: 'The rating (the latest one stands)' }) rating: string;
  @ApiProperty({ enum: ['up', 'down'], nullable: true, type: String, description: 'The rating it replaced; null for the first' })
  previous_rating: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The end user's comment" }) comment: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the rating was given' }) created_at: string;
}

/** Event type → the `data` of its messages. */
export interface WebhookData {
  'turn.completed': TurnCompletedDataDto;
  'thread.created': ThreadCreatedDataDto;
  'event.completed': EventCompletedDataDto;
  'event.failed': EventFailedDataDto;
  'version.published': VersionPublishedDataDto;
  'channel.message.status': ChannelMessageStatusDataDto;
  'thread.handoff_requested': ThreadHandoffDataDto;
  'thread.handoff_accepted': ThreadHandoffDataDto;
  'thread.handoff_released': ThreadHandoffDataDto;
  'thread.message_created': ThreadMessageCreatedDataDto;
  'message.feedback': MessageFeedbackDataDto;
}

/** What each event type's messages say, for the document. */
export const WEBHOOK_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'turn.completed': 'A turn was recorded, on any surface (JSON, SSE, WebSocket, events webhook, channels, rerun).',
  'thread.created': 'A thread was created (by its first turn, or a channel conversation started).',
  'event.completed': 'An events-webhook event (or a channel message handed over as one) completed.',
  'event.failed': 'Such an event failed for good.',
  'version.published': 'A version went live: a publish, or an agent rename that re-published the live revision.',
  'channel.message.status': 'An outbound WhatsApp/SMS message changed status.',
  'thread.handoff_requested': 'A thread waits for an operator: the end user, a rule, a decline or the agent asked for a human.',
  'thread.handoff_accepted': 'An operator holds the thread: accepted a request, or took the thread over.',
  'thread.handoff_released': 'The agent holds the thread again: the operator released it, or the request timed out.',
  'thread.message_created': "A message was written while the thread was not under agent control: the end user's or an operator's.",
  'message.feedback': 'An end user rated an agent message (thumbs up or down, maybe with a comment); a new rating replaces the last.',
};

/** The envelope of one event type's messages, with its `data` model. */
function envelope(type: WebhookEventType, data: Type<unknown>): Type<unknown> {
  class WebhookEnvelope {
    @ApiProperty({ enum: [type], description: 'The event type' }) type: string;
    @ApiProperty({ format: 'date-time', description: 'When the change happened' }) timestamp: string;
    @ApiId('The organization') organization_id: string;
    @ApiId('The project whose endpoints receive it') project_id: string;
    @nullableId('The thread it is about, if any') thread_id: string | null;
    @ApiProperty({
      type: 'integer',
      nullable: true,
      minimum: 1,
      description: "The message's place among the thread's messages (1, 2, 3…); null for messages without a thread",
    })
    sequence: number | null;
    @ApiProperty({ type: data }) data: unknown;
  }
  const name = `${type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Webhook`;
  Object.defineProperty(WebhookEnvelope, 'name', { value: name });
  return WebhookEnvelope;
}

/** Event type → the model of its delivery body (registered as components; the document's `webhooks` refer to them). */
export const WEBHOOK_MODELS: Record<WebhookEventType, Type<unknown>> = {
  'turn.completed': envelope('turn.completed', TurnCompletedDataDto),
  'thread.created': envelope('thread.created', ThreadCreatedDataDto),
  'event.completed': envelope('event.completed', EventCompletedDataDto),
  'event.failed': envelope('event.failed', EventFailedDataDto),
  'version.published': envelope('version.published', VersionPublishedDataDto),
  'channel.message.status': envelope('channel.message.status', ChannelMessageStatusDataDto),
  'thread.handoff_requested': envelope('thread.handoff_requested', ThreadHandoffDataDto),
  'thread.handoff_accepted': envelope('thread.handoff_accepted', ThreadHandoffDataDto),
  'thread.handoff_released': envelope('thread.handoff_released', ThreadHandoffDataDto),
  'thread.message_created': envelope('thread.message_created', ThreadMessageCreatedDataDto),
  'message.feedback': envelope('message.feedback', MessageFeedbackDataDto),
};
