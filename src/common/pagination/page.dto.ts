import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath, type SchemaObject } from '@nestjs/swagger';

export class PageMetaDto {
  @ApiProperty({ description: 'More items exist in the direction of travel' }) has_more: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the last item; pass as page[after]' }) after_cursor: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the first item; pass as page[before]' }) before_cursor:
    string | null;
}

export class PageLinksDto {
  @ApiProperty({ type: String, nullable: true, description: 'Path and query of the next page, repeating the filters' }) next: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Path and query of the previous page, repeating the filters' }) prev:
    string | null;
}

export interface Page<T> {
  results: T[];
  meta: PageMetaDto;
  links: PageLinksDto;
}

/**
 * Documents a `Page<Item>` response with the item schema inlined. `item` is a model, or a schema over models
 * (e.g. a `oneOf` discriminated union) with the models it names.
 */
export const ApiPageResponse = (item: Type<unknown> | { schema: SchemaObject; models: Array<Type<unknown>> }, description?: string) =>
  applyDecorators(
    ApiExtraModels(...(typeof item === 'function' ? [item] : item.models), PageMetaDto, PageLinksDto),
    ApiOkResponse({
      description,
      schema: {
        type: 'object',
        required: ['results', 'meta', 'links'],
        properties: {
          results: { type: 'array', items: typeof item === 'function' ? { $ref: getSchemaPath(item) } : item.schema },
          meta: { $ref: getSchemaPath(PageMetaDto) },
          links: { $ref: getSchemaPath(PageLinksDto) },
        },
      },
    }),
  );
