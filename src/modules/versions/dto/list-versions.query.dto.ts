import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { MaxChars } from '../../../common/validation/char-length.js';
import { VERSION_TAG_PATTERN } from './version-request.dto.js';

export const VERSION_SORT_FIELDS = ['created_at', 'updated_at', 'number'] as const;
export const VERSION_STATUSES = ['draft', 'published', 'archived'] as const;

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const toBoolean = ({ value }: { value: unknown }) =>
  value === '' ? undefined : value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** Newest first by default. Revisions are items (`is_revision: true`) unless `filters[exclude_revisions]=true`. */
export class ListVersionsQueryDto extends PageQueryDto(VERSION_SORT_FIELDS, 'created_at', 'desc') {
  @ApiPropertyOptional({ name: 'filters[status]', enum: VERSION_STATUSES, description: 'Items of versions in this state' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(VERSION_STATUSES as unknown as string[])
  'filters[status]'?: (typeof VERSION_STATUSES)[number];

  @ApiPropertyOptional({ name: 'filters[tag]', type: String, description: 'Items whose version has this entry in `tags`' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MaxChars(50)
  'filters[tag]'?: string;

  @ApiPropertyOptional({ name: 'filters[version_tag]', type: String, example: 'v3.2', description: 'Items with exactly this version_tag' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @Matches(VERSION_TAG_PATTERN, { message: 'filters[version_tag] must look like v3.2' })
  'filters[version_tag]'?: string;

  @ApiPropertyOptional({ name: 'filters[label]', type: String, description: 'Case-insensitive substring of the label' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MaxChars(100)
  'filters[label]'?: string;

  @ApiPropertyOptional({ name: 'filters[number]', type: 'integer', minimum: 1, description: 'Version number (N of vN.R)' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @Type(() => Number)
  @IsInt({ message: 'filters[number] must be an integer' })
  @Min(1)
  @Max(2147483647)
  'filters[number]'?: number;

  @ApiPropertyOptional({ name: 'filters[exclude_revisions]', type: Boolean, default: false, description: 'true: base versions only' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'filters[exclude_revisions] must be true or false' })
  'filters[exclude_revisions]'?: boolean;
}
