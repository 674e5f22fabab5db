import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';
import { CHANNELS, E164, E164_MESSAGE, type Channel, type ChannelMessageStatus } from '../channels.constants.js';

/** Fields of the earlier channel-initiation body, rejected with a message that says what replaced them. */
export const REJECTED_FIELDS = {
  agent_id: 'agent_id is not accepted: the access token carries the agent',
  template_id: "template_id is no longer accepted: the opening message is the live version's welcome message",
  content_variables: "content_variables is no longer accepted: the opening message is the live version's welcome message",
  user_ref_id: 'user_ref_id was renamed to user_id',
} as const;

export class StartChannelThreadDto {
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'Your id of the end user', example: 'user-42' })
  @IsString()
  @Length(1, 255)
  user_id: string;

  @ApiProperty({ pattern: E164.source, description: 'The recipient, E.164', example: '+15550123456' })
  @IsString()
  @Matches(E164, { message: E164_MESSAGE })
  phone_number: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'Name the agent signs the opening message with',
    example: 'Trail Shop',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  agent_display_name?: string;

  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    description: 'A connected sender of the organization (GET /management/v1/senders); omit for the platform default sender',
  })
  @IsOptional()
  @IsId()
  sender_id?: string;

  @ApiHideProperty() @Equals(undefined, { message: REJECTED_FIELDS.agent_id }) agent_id?: never;
  @ApiHideProperty() @Equals(undefined, { message: REJECTED_FIELDS.template_id }) template_id?: never;
  @ApiHideProperty() @Equals(undefined, { message: REJECTED_FIELDS.content_variables }) content_variables?: never;
  @ApiHideProperty() @Equals(undefined, { message: REJECTED_FIELDS.user_ref_id }) user_ref_id?: never;
}

export class ChannelThreadResponseDto {
  @ApiId('The thread (an ordinary thread: transcripts, traces and lists see it)') thread_id: string;
  @ApiProperty({ enum: CHANNELS, description: 'The channel' }) channel: Channel;
  @ApiProperty({ example: '+15550123456', description: 'The recipient' }) phone_number: string;
  @ApiProperty({ example: 'user-42', description: 'Your id of the end user' }) user_id: string;
  @ApiProperty({
    enum: ['queued', 'sent', 'delivered', 'undelivered'],
    description:
      'Status of the opening message: queued (recorded, waiting for the provider), sent (accepted by the provider), delivered, or undelivered (see docs/channels.md)',
  })
  status: Exclude<ChannelMessageStatus, 'received'>;
  @ApiPropertyOptional({ example: '+15550100000', description: "The sender's number; present only when sender_id was given" })
  from?: string;
}

/** Documents the inbound webhook's form body (Twilio's names); other provider fields are accepted too. */
export class InboundChannelMessageDto {
  @ApiProperty({ maxLength: 64, example: 'SM0123456789abcdef0123456789abcdef', description: 'Provider message id: the deduplication key' })
  MessageSid: string;
  // `whatsapp:` (9) + E.164 (16); anything else is 422.
  @ApiProperty({ maxLength: 25, example: 'whatsapp:+15550123456', description: 'The end user (whatsapp: prefix on WhatsApp)' })
  From: string;
  @ApiProperty({ maxLength: 25, example: 'whatsapp:+15550100000', description: 'Our sender number' }) To: string;
  @ApiProperty({
    maxLength: INPUT_LIMITS.messageMaxChars,
    example: 'Do you have trail shoes?',
    description: 'The message text; a longer one is acknowledged and recorded cut, never answered',
  })
  Body: string;
}

/** Documents the delivery-status callback's form body (Twilio's names). */
export class ProviderStatusCallbackDto {
  @ApiProperty({ maxLength: 64, example: 'SM0123456789abcdef0123456789abcdef', description: 'Provider id of our outbound message' })
  MessageSid: string;
  @ApiProperty({ enum: ['queued', 'sending', 'sent', 'delivered', 'read', 'undelivered', 'failed'], description: 'Delivery state' })
  MessageStatus: string;
  @ApiPropertyOptional({
    maxLength: 10,
    example: '30003',
    description: 'Provider error code of a failed delivery (1–10 digits; another value is ignored)',
  })
  ErrorCode?: string;
}

/** Path of a channel thread: `channel` is checked by ChannelPipe (unknown → 404), `threadId` here (bad → 422). */
export class ChannelThreadParams {
  @ApiProperty({ enum: CHANNELS, description: 'whatsapp or sms' })
  @IsString()
  channel: string;

  @ApiProperty({
    pattern: '^[0-9a-fA-F]{24}$',
    description: 'A thread this agent started on the channel (`thread_id` of the start response)',
  })
  @IsId()
  threadId: string;
}
