import { ApiProperty } from '@nestjs/swagger';

export class TokenResponseDto {
  @ApiProperty({
    description: 'Send as `Authorization: Bearer <access_token>`',
    example: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI2NzQwYTFiMiJ9.c2lnbmF0dXJl',
  })
  access_token: string;
  @ApiProperty({ enum: ['Bearer'], description: 'Always Bearer' }) token_type: 'Bearer';
  @ApiProperty({ type: 'integer', description: 'Seconds until the token expires; exchange again after that' }) expires_in: number;
  @ApiProperty({ type: String, nullable: true, description: 'The agent the token acts as; null for an unscoped login session' }) agent_id:
    string | null;
  @ApiProperty({ description: 'The organization the token belongs to', example: '6740a1b2c3d4e5f601234567' }) organization_id: string;
}

export class OAuthErrorDto {
  @ApiProperty({
    example: 'invalid_grant',
    enum: ['invalid_request', 'invalid_grant', 'unsupported_grant_type', 'rate_limited', 'server_error'],
    description: 'OAuth 2.0 error code',
  })
  error: string;
  @ApiProperty({ example: 'invalid_publishable_key', description: 'What failed, for humans and logs' }) error_description: string;
}
