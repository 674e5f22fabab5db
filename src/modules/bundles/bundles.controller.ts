import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { BundlesService } from './bundles.service.js';
import { TemplateDetailResponseDto, TemplateIdParams, TemplateListResponseDto } from './dto/template.dto.js';

@ManagementController('Bundles and templates')
export class BundlesController {
  constructor(private readonly bundles: BundlesService) {}

  @Get('bundle-schema')
  @ApiOperation({
    summary: 'The JSON Schema (draft-07) every pushed bundle must match',
    description:
      'Validate a bundle against it before a push (a push answers 422 naming each bad field). docs/bundle.md explains the fields.',
  })
  @ApiOkResponse({
    description: 'A JSON Schema document',
    schema: { type: 'object', additionalProperties: true, required: ['$schema', 'type', 'properties'] },
  })
  schema(): Record<string, unknown> {
    return this.bundles.schema();
  }

  @Get('templates')
  @ApiOperation({
    summary: 'Templates a new version can start from',
    description: 'Pass a template `id` as `template` with `source: "template"` when creating a version.',
  })
  @ApiOkResponse({ type: TemplateListResponseDto })
  listTemplates(): TemplateListResponseDto {
    return this.bundles.listTemplates();
  }

  @Get('templates/:templateId')
  @ApiOperation({ summary: 'A template with its bundle', description: 'The whole bundle, to read or to push after editing.' })
  @ApiOkResponse({ type: TemplateDetailResponseDto })
  @ApiErrors(
    { status: 404, code: 'not_found', message: 'Template not found' },
    {
      status: 422,
      code: 'validation_error',
      message: 'The request is invalid',
      details: [{ field: 'templateId', message: 'templateId must be a template id such as shopping-assistant' }],
    },
  )
  getTemplate(@Param() { templateId }: TemplateIdParams): TemplateDetailResponseDto {
    return this.bundles.getTemplate(templateId);
  }
}
