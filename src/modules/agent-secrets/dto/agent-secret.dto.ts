import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, ValidateBy } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength } from '../../../common/validation/char-length.js';
import { SECRET_NAME_PATTERN } from '../../bundles/secret-references.js';
import type { AgentSecretRow } from '../agent-secrets.repository.js';

/** Characters of a secret's value: an API key, a bearer token, a signed JWT fit with room to spare. */
export const SECRET_VALUE_MAX_CHARS = 4096;

/** A header value may hold no control character (CR and LF would start another header). */
const NoControlCharacters = () =>
  ValidateBy({
    name: 'noControlCharacters',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && [...value].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f),
      defaultMessage: () => 'value must have no control characters (it is sent in a header value)',
    },
  });

export class AgentSecretParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({
    pattern: SECRET_NAME_PATTERN,
    maxLength: 64,
    example: 'CRM_TOKEN',
    description: 'Secret name: a letter, then letters, digits and underscores (case-sensitive); header values name it as {{secret:NAME}}',
  })
  @Matches(new RegExp(SECRET_NAME_PATTERN), { message: 'name must be a letter, then up to 63 letters, digits or underscores' })
  name: string;
}

export class PutAgentSecretDto {
  @ApiProperty({
    minLength: 1,
    maxLength: SECRET_VALUE_MAX_CHARS,
    pattern: '^[^\\u0000-\\u001f\\u007f]+$',
    example: 'sk_live_…',
    description: 'The value, sent in header values that name the secret; never shown again (no control characters: it goes into a header)',
  })
  @IsString()
  @CharLength(1, SECRET_VALUE_MAX_CHARS)
  @NoControlCharacters()
  value: string;
}

export class ListAgentSecretsQueryDto extends PageQueryDto(['name', 'created_at', 'updated_at'] as const, 'name', 'asc') {}

/** A secret as listings show it: its name and dates, never its value. */
export class AgentSecretResponseDto {
  @ApiProperty({ example: 'CRM_TOKEN', description: 'Secret name' }) name: string;
  @ApiProperty({ format: 'date-time', description: 'When the secret was first set' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When its value was last set' }) updated_at: string;
}

export const toAgentSecretResponse = (row: AgentSecretRow): AgentSecretResponseDto => ({
  name: row.name,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
