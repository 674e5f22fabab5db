import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CHANNELS, E164, E164_MESSAGE, type Channel } from '../channels.constants.js';
import type { SenderEntity } from '../entities/sender.entity.js';

export class CreateSenderDto {
  @ApiProperty({ enum: CHANNELS, example: 'whatsapp', description: 'The channel the number serves' })
  @IsIn(CHANNELS, { message: 'channel must be one of: whatsapp, sms' })
  channel: Channel;

  @ApiProperty({ pattern: E164.source, description: 'The connected number, E.164', example: '+15550100000' })
  @IsString()
  @Matches(E164, { message: E164_MESSAGE })
  phone_number: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Trail Shop support', description: 'Name for people' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  display_name?: string;
}

export class SenderIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a connected sender number' })
  @IsId()
  senderId: string;
}

export const SENDER_SORT_FIELDS = ['created_at', 'phone_number'] as const;

export class ListSendersQueryDto extends PageQueryDto(SENDER_SORT_FIELDS, 'created_at', 'desc') {}

export class SenderResponseDto {
  @ApiId('Sender id (pass as sender_id)') id: string;
  @ApiProperty({ enum: CHANNELS, description: 'The channel the number serves' }) channel: Channel;
  @ApiProperty({ example: '+15550100000', description: 'The connected number, E.164' }) phone_number: string;
  @ApiProperty({ type: String, nullable: true, description: 'Name for people' }) display_name: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the number was connected' }) created_at: string;
}

export const toSenderResponse = (sender: SenderEntity): SenderResponseDto => ({
  id: sender.id,
  channel: sender.channel,
  phone_number: sender.phoneNumber,
  display_name: sender.displayName,
  created_at: sender.createdAt.toISOString(),
});
