import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, ValidateIf } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { MaxChars } from '../../../common/validation/char-length.js';

export const GRANT_TYPES = ['publishable_key', 'password'] as const;

/** Body of `POST /management/v1/auth/token`, as JSON or application/x-www-form-urlencoded. */
export class TokenRequestDto {
  @ApiProperty({
    enum: GRANT_TYPES,
    example: 'publishable_key',
    description: '`publishable_key`: a client token for messaging; `password`: a login session (management, and messaging with agent_id)',
  })
  @IsString()
  @MaxChars(64)
  grant_type: string;

  @ApiPropertyOptional({ description: 'With grant_type=publishable_key', example: 'pk_Zm9vYmFy…' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'publishable_key')
  @IsString()
  @MaxChars(200)
  publishable_key?: string;

  @ApiPropertyOptional({ description: 'With grant_type=password: the user email', example: 'owner@example.com' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'password')
  @IsString()
  @MaxChars(320)
  username?: string;

  @ApiPropertyOptional({ description: 'With grant_type=password: the user password' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'password')
  @IsString()
  @MaxChars(1024)
  password?: string;

  @ApiPropertyOptional({ description: 'With grant_type=password: scope the session to this agent so it serves messaging too' })
  @IsOptional()
  @IsId()
  agent_id?: string;
}

export const isGrantType = (value: string): value is (typeof GRANT_TYPES)[number] => (GRANT_TYPES as readonly string[]).includes(value);
