import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { ID_PATTERN } from './new-id.js';

/** A 24-hex identifier; a mismatch is a 422 naming the field. */
export const IsId = (options: { each?: boolean } = {}) =>
  applyDecorators(Matches(ID_PATTERN, { each: options.each, message: '$property must be 24 hexadecimal characters' }));

/** Documentation for an id field of a response. */
export const ApiId = (description?: string) =>
  ApiProperty({
    type: String,
    pattern: '^[0-9a-f]{24}$',
    example: '6740a1b2c3d4e5f601234567',
    description: description ?? 'Identifier (24 hexadecimal characters)',
  });
