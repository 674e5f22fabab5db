import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';

/** Documentation of the webhook body. Validation is EventsIngestService's (unknown fields are ignored, not rejected). */
export class CreateEventDto {
  @ApiPropertyOptional({
    maxLength: INPUT_LIMITS.messageMaxChars,
    description: 'The message to run the agent on; omit to run on agent_variables alone',
    example: 'Order 1042 was delivered',
  })
  text?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form key/value data (any JSON values); default {}. A string `user_id` here names the end user.',
    example: { order_id: 1042 },
  })
  agent_variables?: Record<string, unknown>;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 255,
    description: 'Your conversation id (trimmed, 1..255); reuse continues the conversation; omitted or blank starts a new one',
    example: 'order-1042',
  })
  thread_id?: string;
}

export class EventAcceptedDto {
  @ApiId('The id of the queued event')
  event_id: string;
}

export class EventIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'The `event_id` answered by POST /messaging/v1/events' })
  @IsId()
  eventId: string;
}

export class EventStatusDto {
  @ApiId('The event')
  event_id: string;

  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed'], description: 'Processing state' })
  status: 'queued' | 'processing' | 'completed' | 'failed';

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^[0-9a-f]{24}$',
    description: 'Our thread the event ran on; null until processed',
  })
  thread_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The caller’s thread_id (the thread’s external_id); null when none was given' })
  external_thread_id: string | null;

  @ApiProperty({ description: 'Processing attempts so far' })
  attempts: number;

  @ApiPropertyOptional({ description: 'Why the last attempt failed (present on failed events and on queued events awaiting a retry)' })
  error?: string;

  @ApiProperty({ format: 'date-time', description: 'When the event was accepted' })
  created_at: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the event completed or failed' })
  completed_at?: string;
}
