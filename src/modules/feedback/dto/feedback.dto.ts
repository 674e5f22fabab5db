import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength, MaxChars } from '../../../common/validation/char-length.js';
import type { FeedbackRow, Rating } from '../feedback.repository.js';

export const RATINGS: readonly Rating[] = ['up', 'down'];
export const FEEDBACK_COMMENT_MAX_CHARS = 2000;

export class MessageIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'The `message.id` of an agent reply' })
  @IsId()
  messageId: string;
}

/** The end user's rating of a reply; a new rating replaces the previous one (comment included). */
export class FeedbackDto {
  @ApiProperty({ enum: RATINGS, example: 'up', description: 'Thumbs up or down' })
  @IsIn(RATINGS as unknown as string[], { message: 'rating must be up or down' })
  rating: Rating;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: FEEDBACK_COMMENT_MAX_CHARS,
    example: 'Exactly what I needed',
    description: 'Optional words from the end user; a new rating replaces it (null or absent: none)',
  })
  @ValidateIf((o: FeedbackDto) => o.comment !== undefined && o.comment !== null)
  @IsString()
  @MaxChars(FEEDBACK_COMMENT_MAX_CHARS)
  comment?: string | null;
}

export class FeedbackResponseDto {
  @ApiId('Feedback id') id: string;
  @ApiId('The rated agent message') message_id: string;
  @ApiId('Its thread') thread_id: string;
  @ApiId('The turn that wrote the message') interaction_id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ description: "The thread's end user", example: 'user-42' }) user_id: string;
  @ApiProperty({ example: 'v2.1', description: 'The revision that wrote the message' }) version_tag: string;
  @ApiProperty({ enum: RATINGS, description: 'The latest rating' }) rating: Rating;
  @ApiProperty({ type: String, nullable: true, description: "The end user's comment with it" }) comment: string | null;
  @ApiProperty({ format: 'date-time', description: 'When this (the latest) rating was given' }) created_at: string;
}

export class ListFeedbackQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'desc') {
  @ApiPropertyOptional({ enum: RATINGS, description: 'Only this rating' })
  @IsOptional()
  @IsIn(RATINGS as unknown as string[], { message: 'rating must be up or down' })
  rating?: Rating;

  @ApiPropertyOptional({ example: 'v2.1', description: 'Only messages written by this revision' })
  @IsOptional()
  @IsString()
  @Matches(/^v\d{1,9}\.\d{1,9}$/, { message: 'version_tag must look like v2.1' })
  version_tag?: string;

  @ApiPropertyOptional({ pattern: '^[0-9a-fA-F]{24}$', description: 'Only this thread' })
  @IsOptional()
  @IsId()
  thread_id?: string;

  @ApiPropertyOptional({ description: 'Only this end user' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsString()
  @CharLength(1, 255)
  user_id?: string;
}

export const toFeedbackResponse = (row: FeedbackRow): FeedbackResponseDto => ({
  id: row.id,
  message_id: row.message_id,
  thread_id: row.thread_id,
  interaction_id: row.interaction_id,
  agent_id: row.agent_id,
  user_id: row.user_id,
  version_tag: row.version_tag,
  rating: row.rating,
  comment: row.comment,
  created_at: row.created_at.toISOString(),
});
