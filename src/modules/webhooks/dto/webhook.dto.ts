import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength, MaxChars } from '../../../common/validation/char-length.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks.constants.js';

const EVENTS_MESSAGE = `each value in events must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

export class CreateWebhookDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 2048,
    example: 'https://hooks.example.com/agent-service',
    description: 'Where deliveries are POSTed: http(s), and not a loopback, private, link-local or metadata address',
  })
  @IsString()
  @CharLength(1, 2048)
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['turn.completed'], description: 'The event types to deliver' })
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 500, example: 'CRM sync', description: 'For people' })
  @IsOptional()
  @IsString()
  @MaxChars(500)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'Whether messages are delivered' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 2048,
    example: 'https://hooks.example.com/agent-service/v2',
    description: 'Where deliveries are POSTed (same policy as on create)',
  })
  @IsOptional()
  @IsString()
  @CharLength(1, 2048)
  url?: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ['turn.completed', 'event.failed'],
    description: 'The event types to deliver (replaces the list)',
  })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events?: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 500, example: 'CRM sync (v2)', description: 'For people' })
  @IsOptional()
  @IsString()
  @MaxChars(500)
  description?: string;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint (its failure count starts over)', example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 604800,
    example: 3600,
    description: 'How long the previous secret keeps signing beside the new one (default WEBHOOKS_SECRET_OVERLAP_SECONDS; 0: none)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(604800)
  overlap_seconds?: number;
}

export class WebhookParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a project of your organization' })
  @IsId()
  projectId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a webhook endpoint of the project' })
  @IsId()
  webhookId: string;
}

export class WebhookDeliveryParams extends WebhookParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a delivery of the webhook' })
  @IsId()
  deliveryId: string;
}

export class ListWebhooksQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'desc') {}

export class ListWebhookDeliveriesQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'desc') {}

export class WebhookResponseDto {
  @ApiId('Webhook endpoint id') id: string;
  @ApiId('The project whose messages it receives') project_id: string;
  @ApiProperty({ example: 'https://hooks.example.com/agent-service', description: 'Where deliveries are POSTed' }) url: string;
  @ApiProperty({ example: 'CRM sync', description: 'For people' }) description: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['turn.completed'], description: 'The event types delivered' })
  events: string[];
  @ApiProperty({ description: 'false: nothing is delivered (disabled by request, by a 410 answer or by failures in a row)' })
  enabled: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why it is disabled', example: null }) disabled_reason: string | null;
  @ApiProperty({ type: 'integer', description: 'Failed attempts in a row' }) consecutive_failures: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the previous secret still signs beside the current one (after a rotation)',
  })
  previous_secret_expires_at: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When it last changed' }) updated_at: string;
}

export class WebhookWithSecretResponseDto extends WebhookResponseDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (Standard Webhooks `whsec_` + base64). Shown only here: store it now.',
  })
  secret: string;
}

export class WebhookAttemptDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'Attempt number, from 1' }) attempt: number;
  @ApiProperty({ format: 'date-time', description: 'When the attempt started' }) at: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 500, description: 'The receiver’s status; null when none came' })
  status_code: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 84, description: 'Milliseconds until the answer (or the failure)' })
  latency_ms: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'timeout', description: 'Why the attempt failed without a status' })
  error: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The start of the receiver’s answer (1 KiB at most)' })
  response_body: string | null;
}

export class WebhookDeliveryResponseDto {
  @ApiId('Delivery id') id: string;
  @ApiProperty({ example: 'msg_674a1c2e9b1d4e0012345678', description: 'The `webhook-id` header: the same on every attempt' })
  webhook_id: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, description: 'The message’s type' }) event_type: string;
  @ApiProperty({ type: String, nullable: true, description: 'The thread the message is about, if any' }) thread_id: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The message’s sequence number in its thread' }) sequence: number | null;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], description: 'pending: an attempt is due or running' }) status: string;
  @ApiProperty({ type: 'integer', description: 'Attempts made' }) attempts: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The receiver’s status at the last attempt' }) last_status_code:
    number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed' }) last_error: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Latency of the last attempt, ms' }) last_latency_ms: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due (pending only)' })
  next_attempt_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a 2xx came' }) delivered_at: string | null;
  @ApiProperty({ type: [WebhookAttemptDto], description: 'The attempts, oldest first (the newest 50)' }) attempt_log: WebhookAttemptDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload as sent' }) payload: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', description: 'When the message was written' }) created_at: string;
}
