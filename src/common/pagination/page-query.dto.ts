import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxChars } from '../validation/char-length.js';

export type SortOrder = 'asc' | 'desc';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' || value === 'null' ? undefined : value);

export interface PageQuery<S extends string = string> {
  'page[size]'?: number;
  'page[after]'?: string;
  'page[before]'?: string;
  sort_by?: S;
  sort_order?: SortOrder;
}

/**
 * Builds the query DTO shared by every list: `page[size]` 1..100 (default 50), `page[after]`, `page[before]`,
 * `sort_by` (one of the list's sortable fields) and `sort_order`. The bracketed names are the wire names, so
 * validation details name them exactly.
 */
export function PageQueryDto<S extends string>(sortFields: readonly S[], defaultSort: S, defaultOrder: SortOrder = 'desc') {
  class PageQueryBase implements PageQuery<S> {
    @ApiPropertyOptional({ name: 'page[size]', type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Items per page' })
    @IsOptional()
    @Type(() => Number)
    @IsInt({ message: 'page[size] must be an integer' })
    @Min(1)
    @Max(100)
    'page[size]'?: number;

    @ApiPropertyOptional({ name: 'page[after]', type: String, description: 'Opaque cursor: the page after this one (meta.after_cursor)' })
    @IsOptional()
    @Transform(emptyToUndefined)
    @IsString()
    @MaxChars(1024)
    'page[after]'?: string;

    @ApiPropertyOptional({
      name: 'page[before]',
      type: String,
      description: 'Opaque cursor: the page before this one (meta.before_cursor)',
    })
    @IsOptional()
    @Transform(emptyToUndefined)
    @IsString()
    @MaxChars(1024)
    'page[before]'?: string;

    @ApiPropertyOptional({ enum: sortFields, default: defaultSort, description: 'Field to sort by' })
    @IsOptional()
    @IsIn(sortFields as readonly string[])
    sort_by?: S;

    @ApiPropertyOptional({ enum: ['asc', 'desc'], default: defaultOrder, description: 'Sort direction' })
    @IsOptional()
    @IsIn(['asc', 'desc'])
    sort_order?: SortOrder;

    static readonly defaultSort = defaultSort;
    static readonly defaultOrder = defaultOrder;
  }
  return PageQueryBase;
}
