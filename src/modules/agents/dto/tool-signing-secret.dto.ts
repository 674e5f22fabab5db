import { ApiProperty } from '@nestjs/swagger';

export class ToolSigningSecretDto {
  @ApiProperty({ description: 'The agent', example: '65f1c0ffee0000000000a001' })
  agent_id: string;

  @ApiProperty({
    description:
      "Verifies the agent's HTTP tool calls: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the base64 key after `whsec_` (Standard Webhooks; any of its libraries verifies it). Derived from the server key: the same on every instance and after restarts",
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;

  @ApiProperty({ enum: ['standard-webhooks-v1'], description: 'The signature scheme (https://www.standardwebhooks.com)' })
  scheme: 'standard-webhooks-v1';
}
