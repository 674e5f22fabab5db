import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength, IsMessageText } from '../../../common/validation/char-length.js';
import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';
import type { InboxRow, ThreadControlRow } from '../../conversations/conversations.types.js';
import { ThreadItemDto } from '../../threads/dto/thread-response.dto.js';

export class HandoffThreadIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'A thread id' })
  @IsId()
  threadId: string;
}

/** `POST /messaging/v1/threads/{threadId}/handoff` and `POST /management/v1/threads/{threadId}/takeover`. */
export class HandoffRequestDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 500,
    description: 'Why a human is wanted (shown in the inbox)',
    example: 'Billing dispute',
  })
  @IsOptional()
  @CharLength(1, 500)
  reason?: string;
}

/** `POST /management/v1/threads/{threadId}/messages`. */
export class OperatorMessageDto {
  @ApiProperty({
    maxLength: INPUT_LIMITS.messageMaxChars,
    description: "The operator's message to the end user",
    example: 'Hi, I am Ana. Let me look.',
  })
  @IsMessageText()
  text: string;
}

/** A thread's control after a handoff action (docs/handoff.md). */
export class ThreadControlDto {
  @ApiId('The thread') thread_id: string;
  @ApiProperty({ enum: ['agent', 'pending', 'human'], description: 'Who holds the thread' }) control: 'agent' | 'pending' | 'human';
  @ApiProperty({ type: String, nullable: true, description: 'The operator (user id) holding it; null unless `human`' }) assignee:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last handoff was asked for' }) reason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last handoff was asked for' })
  requested_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an operator accepted (or took over)' })
  accepted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it went back to the agent' })
  released_at: string | null;
}

export const toThreadControl = (
  t: Pick<
    ThreadControlRow,
    'id' | 'control' | 'assignee_id' | 'handoff_reason' | 'handoff_requested_at' | 'handoff_accepted_at' | 'handoff_released_at'
  >,
): ThreadControlDto => ({
  thread_id: t.id,
  control: t.control,
  assignee: t.assignee_id,
  reason: t.handoff_reason,
  requested_at: t.handoff_requested_at?.toISOString() ?? null,
  accepted_at: t.handoff_accepted_at?.toISOString() ?? null,
  released_at: t.handoff_released_at?.toISOString() ?? null,
});

/** An operator's message as the API answers it. */
export class OperatorMessageResponseDto {
  @ApiId('The message') id: string;
  @ApiId('The thread') thread_id: string;
  @ApiProperty({ description: 'The text' }) text: string;
  @ApiId('The operator (user id)') author_id: string;
  @ApiProperty({ format: 'date-time', description: 'When it was written' }) created_at: string;
}

export const INBOX_SORT_FIELDS = ['requested_at'] as const;

export class InboxQueryDto extends PageQueryDto(INBOX_SORT_FIELDS, 'requested_at', 'asc') {
  @ApiPropertyOptional({ enum: ['pending', 'human'], description: 'Only threads waiting for an operator, or only held ones' })
  @IsOptional()
  @IsIn(['pending', 'human'])
  control?: 'pending' | 'human';

  @ApiPropertyOptional({ enum: ['me'], description: '`me`: only the threads the calling operator holds (login sessions only)' })
  @IsOptional()
  @IsIn(['me'])
  assignee?: 'me';
}

/** A thread in the inbox: the thread list item plus its handoff. */
export class InboxItemDto extends ThreadItemDto {
  @ApiId('The project') project_id: string;
  @ApiProperty({ type: String, nullable: true, enum: ['whatsapp', 'sms', null], description: 'The channel of a channel thread' })
  channel: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a human was asked for' }) handoff_reason: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the handoff was asked for (the inbox is oldest first)' })
  handoff_requested_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an operator accepted' })
  handoff_accepted_at: string | null;
}

export const toInboxItem = (t: InboxRow): InboxItemDto => ({
  id: t.id,
  title: t.title,
  created_at: t.created_at.toISOString(),
  version_tag: t.version_tag,
  agent_id: t.agent_id,
  user_id: t.user_id,
  external_id: t.external_id,
  control: t.control,
  assignee: t.assignee_id,
  project_id: t.project_id,
  channel: t.channel,
  handoff_reason: t.handoff_reason,
  handoff_requested_at: t.handoff_requested_at!.toISOString(),
  handoff_accepted_at: t.handoff_accepted_at?.toISOString() ?? null,
});

/** The participants of a message on the handoff feeds. */
export class FeedParticipantDto {
  @ApiProperty({ description: 'The operator (user id), the end user (your id) or the agent id' }) id: string;
  @ApiProperty({ enum: ['operator', 'user', 'agent'], description: 'Who wrote it' }) type: 'operator' | 'user' | 'agent';
}

export class FeedMessageDto {
  @ApiId('The message') id: string;
  @ApiProperty({ format: 'date-time', description: 'When it was written' }) created_at: string;
  @ApiProperty({ type: String, nullable: true, description: 'The text' }) text: string | null;
  @ApiProperty({ type: FeedParticipantDto, description: 'The operator, or the end user (inbox only)' }) sender: FeedParticipantDto;
}

/** `message` event of the thread and inbox streams (WebSocket: a `message` frame with `id` null). */
export class FeedMessageEventDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ type: FeedMessageDto, description: 'The message' }) message: FeedMessageDto;
}

/** `control` event of the thread and inbox streams (WebSocket: a `control` frame with `id` null). */
export class FeedControlEventDto {
  @ApiId('The thread') thread_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ enum: ['agent', 'pending', 'human'], description: 'Who holds the thread now' }) control: 'agent' | 'pending' | 'human';
  @ApiProperty({
    enum: ['requested', 'accepted', 'takeover', 'released', 'timed_out', 'current'],
    description: 'What happened (`current`: the state when the stream opened)',
  })
  change: string;
  @ApiProperty({ type: String, nullable: true, description: 'The operator (user id) holding it' }) assignee: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a human was asked for' }) reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: "What the end user is told (the bundle's handoff or timeout message)" })
  text: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it changed' }) at: string;
}
