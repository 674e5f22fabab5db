import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { CharLength, MaxChars } from '../../../common/validation/char-length.js';

export const VERSION_SOURCES = ['empty', 'template', 'clone'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

export const VERSION_TAG_PATTERN = /^v\d{1,9}\.\d{1,9}$/;

class VersionMetadataDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Holiday campaign', description: 'Short name for people' })
  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  label?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    example: ['holiday', 'experiment-b'],
    description: 'Each 1..50 characters; duplicates are dropped',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @CharLength(1, 50, { each: true })
  tags?: string[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 5000, description: 'Free-form notes', example: 'Try the new greeting' })
  @IsOptional()
  @IsString()
  @MaxChars(5000)
  notes?: string | null;
}

export class CreateVersionDto extends VersionMetadataDto {
  @ApiProperty({
    enum: VERSION_SOURCES,
    description: 'empty: a minimal bundle; template: a template bundle (`template`); clone: the current bundle of `from_version_id`',
  })
  @IsIn(VERSION_SOURCES as unknown as string[])
  source: VersionSource;

  @ApiPropertyOptional({
    example: 'shopping-assistant',
    description: 'Required with source "template": an id from GET /management/v1/templates',
  })
  @ValidateIf((o: CreateVersionDto) => o.source === 'template' || o.template !== undefined)
  @IsString()
  @CharLength(1, 100)
  template?: string;

  @ApiPropertyOptional({ pattern: '^[0-9a-fA-F]{24}$', description: 'Required with source "clone": a version of the same agent' })
  @ValidateIf((o: CreateVersionDto) => o.source === 'clone' || o.from_version_id !== undefined)
  @IsId()
  from_version_id?: string;
}

/** Only metadata changes here; a version's configuration changes only through push. `null` clears a field. */
export class UpdateVersionDto extends VersionMetadataDto {}

export class PushBundleDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The configuration bundle; must match GET /management/v1/bundle-schema',
  })
  @IsObject()
  bundle: Record<string, unknown>;

  @ApiPropertyOptional({
    maxLength: 1000,
    example: 'Add winter jackets to the catalog',
    description: 'What changed, like a commit message',
  })
  @IsOptional()
  @IsString()
  @MaxChars(1000)
  message?: string;
}

export class PullQueryDto {
  @ApiPropertyOptional({ example: 'v3.2', description: "A revision tag of this version; omit for the version's current revision" })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsString()
  @Matches(VERSION_TAG_PATTERN, { message: 'version_tag must look like v3.2' })
  version_tag?: string;
}
