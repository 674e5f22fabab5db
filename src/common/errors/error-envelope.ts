import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ErrorDetail } from './app-error.js';

export class ErrorDetailDto {
  @ApiProperty({ example: 'name', description: 'Wire path of the field (`agent_variables.static`, `page[size]`, `tags[2]`)' })
  field: string;
  @ApiProperty({ example: 'name must be longer than or equal to 2 characters', description: 'What is wrong with it' }) message: string;
}

export class ErrorBodyDto {
  @ApiProperty({ description: 'Stable code to branch on; keep a default branch, the set may grow', example: 'not_found' })
  code: string;
  @ApiProperty({ example: 'Project not found', description: 'Human-readable; do not parse it' }) message: string;
  @ApiProperty({ description: 'Equals the x-request-id response header', example: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d' })
  request_id: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto], description: 'Per-field problems (validation errors)' }) details?: ErrorDetailDto[];
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto, description: 'The error' }) error: ErrorBodyDto;
}

export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string; details?: ErrorDetail[] };
}

export function errorEnvelope(code: string, message: string, requestId: string, details?: ErrorDetail[]): ErrorEnvelope {
  return { error: details?.length ? { code, message, request_id: requestId, details } : { code, message, request_id: requestId } };
}
