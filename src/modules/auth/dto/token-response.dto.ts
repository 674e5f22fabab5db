import { ApiProperty } from '@nestjs/swagger';

export class TokenResponseDto {
  @ApiProperty() access_token: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type: 'Bearer';
  @ApiProperty({ type: 'integer', description: 'Seconds until the token expires; exchange again after that' }) expires_in: number;
  @ApiProperty({ type: String, nullable: true, description: 'The agent the token acts as; null for an unscoped login session' }) agent_id:
    string | null;
  @ApiProperty() organization_id: string;
}

export class OAuthErrorDto {
  @ApiProperty({
    example: 'invalid_grant',
    enum: ['invalid_request', 'invalid_grant', 'unsupported_grant_type', 'rate_limited', 'server_error'],
  })
  error: string;
  @ApiProperty({ example: 'invalid_publishable_key' }) error_description: string;
}
