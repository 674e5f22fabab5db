import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { MaxChars } from '../../../common/validation/char-length.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { AgentApiKeyEntity } from '../../auth/entities/agent-api-key.entity.js';
import type { PublishableKeyEntity } from '../../auth/entities/publishable-key.entity.js';

export class AgentKeyParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: "Id of one of this agent's keys (from the list or the create response)" })
  @IsId()
  keyId: string;
}

export class CreatePublishableKeyDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: 50,
    example: ['https://shop.example.com'],
    description: 'Web origins (scheme://host[:port]) allowed to exchange the key and call messaging; empty = any',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(300, { each: true })
  allowed_origins?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: 50,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description:
      'CIDR ranges (IPv4 or IPv6) allowed to exchange the key and to use the tokens minted from it (checked on every request); a bare address means that address only; empty = any',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  allowed_ip_ranges?: string[];
}

export class ListKeysQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'desc') {}

export class PublishableKeyResponseDto {
  @ApiId('Key id (for revocation)') id: string;
  @ApiProperty({ example: 'pk_Zm9vYmFy', description: 'The first characters of the key, to tell keys apart' }) key_prefix: string;
  @ApiProperty({ type: [String], description: 'Web origins allowed to use the key; empty = any' }) allowed_origins: string[];
  @ApiProperty({ type: [String], description: 'CIDR ranges allowed to exchange the key and to use its tokens; empty = any' })
  allowed_ip_ranges: string[];
  @ApiProperty({ format: 'date-time', description: 'When the key was created' }) created_at: string;
}

export class CreatedPublishableKeyResponseDto extends PublishableKeyResponseDto {
  @ApiProperty({ example: 'pk_Zm9vYmFyYmF6…', description: 'The key itself: shown only in this response' }) publishable_key: string;
}

export class AgentApiKeyResponseDto {
  @ApiId('Key id (for revocation)') id: string;
  @ApiProperty({ example: 'agk_Zm9vYmFy', description: 'The first characters of the key, to tell keys apart' }) key_prefix: string;
  @ApiProperty({ format: 'date-time', description: 'When the key was created' }) created_at: string;
}

export class CreatedAgentApiKeyResponseDto extends AgentApiKeyResponseDto {
  @ApiProperty({ example: 'agk_Zm9vYmFyYmF6…', description: 'The key itself: shown only in this response' }) api_key: string;
}

export const toPublishableKeyResponse = (k: PublishableKeyEntity): PublishableKeyResponseDto => ({
  id: k.id,
  key_prefix: k.keyPrefix,
  allowed_origins: k.allowedOrigins,
  allowed_ip_ranges: k.allowedIpRanges,
  created_at: k.createdAt.toISOString(),
});

export const toAgentApiKeyResponse = (k: AgentApiKeyEntity): AgentApiKeyResponseDto => ({
  id: k.id,
  key_prefix: k.keyPrefix,
  created_at: k.createdAt.toISOString(),
});
