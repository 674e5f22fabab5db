import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import { CardResponseDto } from '../../messaging/dto/message-response.dto.js';
import type { MessageRow, ThreadItemRow, ThreadRow } from '../../conversations/conversations.types.js';

/** Thread list item (the spec's "Thread (list item)" plus the agent, user and external ids; docs/threads.md). */
export class ThreadItemDto {
  @ApiId('Thread id') id: string;
  @ApiProperty({ description: 'The first message, shortened; renamable' }) title: string;
  @ApiProperty({ format: 'date-time', description: 'When the thread started' }) created_at: string;
  @ApiProperty({ example: 'v3.2', description: 'The agent version the conversation (last) ran on' }) version_tag: string;
  @ApiId('The agent of the thread') agent_id: string;
  @ApiProperty({ description: 'End-user id' }) user_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The caller's own conversation id, when one was given" }) external_id:
    string | null;
  @ApiProperty({
    enum: ['agent', 'pending', 'human'],
    description: 'Who holds the thread: the agent, nobody yet (waiting for an operator), or an operator (docs/handoff.md)',
  })
  control: 'agent' | 'pending' | 'human';
  @ApiProperty({ type: String, nullable: true, description: 'The operator (user id) holding the thread; null unless `human`' })
  assignee: string | null;
}

/** The full thread: the list item plus its project, runtime, counters and facets. */
export class ThreadDto extends ThreadItemDto {
  @ApiId('The project of the agent') project_id: string;
  @ApiProperty({ enum: ['v1', 'v2'], description: 'Engine generation of the thread' }) runtime: 'v1' | 'v2';
  @ApiProperty({ type: 'integer', description: 'Turns in the thread' }) interaction_count: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last turn ran' }) last_interaction_at:
    string | null;
  @ApiProperty({ format: 'date-time', description: 'When the thread last changed' }) updated_at: string;
  @ApiProperty({ type: [String], description: 'Tools (capabilities) activated in the thread' }) tools: string[];
  @ApiProperty({ type: [String], description: 'Rule outcomes: `code`, `code:fired`, `code:blocked`, `code:passed`' }) rules: string[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Parameters computed in the thread (latest value per key)' })
  params: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last handoff was asked for' }) handoff_reason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last handoff was asked for' })
  handoff_requested_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an operator accepted it (time to accept)' })
  handoff_accepted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it went back to the agent (time held)' })
  handoff_released_at: string | null;
}

/**
 * One message of a transcript: each interaction yields the end-user message (when it had one) and the agent reply;
 * operator messages and control notes (handoff) take their place in thread order.
 */
@ApiExtraModels(CardResponseDto)
export class ThreadMessageDto {
  @ApiId('Message id') id: string;
  @ApiProperty({
    enum: ['user', 'agent', 'operator', 'note'],
    description: 'Who wrote it: the end user, the agent, an operator, or a control note (a handoff was asked for, accepted, released…)',
  })
  role: 'user' | 'agent' | 'operator' | 'note';
  @ApiProperty({ description: 'Message text; empty for an image-only user message or a note without text' }) text: string;
  @ApiProperty({ format: 'date-time', description: 'When it was written' }) created_at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^[0-9a-f]{24}$',
    description: 'The interaction (turn) this message belongs to; null for operator messages and notes',
  })
  interaction_id: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Operator messages and notes: the operator (user id)' })
  author_id?: string | null;
  @ApiPropertyOptional({
    enum: ['requested', 'accepted', 'takeover', 'released', 'timed_out'],
    description: 'Notes: what changed the control',
  })
  change?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Notes: why a handoff was asked for' }) reason?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'User messages: the image sent for vision input' }) image_url?:
    string | null;
  @ApiPropertyOptional({ type: [CardResponseDto], description: 'Agent replies: the cards' }) cards?: CardResponseDto[];
  @ApiPropertyOptional({ type: [String], description: 'Agent replies: the follow-up suggestions' }) followup_suggestions?: string[];
  @ApiPropertyOptional({ description: 'Agent replies: the most relevant link, empty when none' }) url?: string;
  @ApiPropertyOptional({ description: 'Agent replies: the agent version that answered' }) version_tag?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Agent replies: input tokens of the turn' }) input_tokens?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Agent replies: output tokens of the turn' }) output_tokens?: number;
}

export const toThreadItem = (t: ThreadItemRow): ThreadItemDto => ({
  id: t.id,
  title: t.title,
  created_at: t.created_at.toISOString(),
  version_tag: t.version_tag,
  agent_id: t.agent_id,
  user_id: t.user_id,
  external_id: t.external_id,
  control: t.control,
  assignee: t.assignee_id,
});

export const toThread = (t: ThreadRow): ThreadDto => ({
  ...toThreadItem(t),
  project_id: t.project_id,
  runtime: t.runtime,
  interaction_count: t.interaction_count,
  last_interaction_at: t.last_interaction_at ? t.last_interaction_at.toISOString() : null,
  updated_at: t.updated_at.toISOString(),
  tools: t.tools,
  rules: t.rules,
  params: t.params,
  handoff_reason: t.handoff_reason,
  handoff_requested_at: t.handoff_requested_at?.toISOString() ?? null,
  handoff_accepted_at: t.handoff_accepted_at?.toISOString() ?? null,
  handoff_released_at: t.handoff_released_at?.toISOString() ?? null,
});

export const toThreadMessage = (m: MessageRow): ThreadMessageDto => {
  const base = { id: m.id, role: m.role, text: m.text ?? '', created_at: m.created_at.toISOString(), interaction_id: m.interaction_id };
  if (m.role === 'user') return { ...base, image_url: m.image_url };
  if (m.role === 'operator') return { ...base, author_id: m.author_id };
  const reply = m.reply ?? {};
  if (m.role === 'note') {
    return { ...base, author_id: m.author_id, change: reply.change as string, reason: (reply.reason as string | null | undefined) ?? null };
  }
  return {
    ...base,
    cards: (reply.cards as CardResponseDto[] | undefined) ?? [],
    followup_suggestions: (reply.followup_suggestions as string[] | undefined) ?? [],
    url: (reply.url as string | undefined) ?? '',
    version_tag: m.version_tag ?? undefined,
    input_tokens: m.input_tokens ?? 0,
    output_tokens: m.output_tokens ?? 0,
  };
};
