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
    description: 'See docs/bundle.md for the fields and examples.',
  })
  @ApiOkResponse({
    description: 'A JSON Schema document',
    schema: { type: 'object', additionalProperties: true, required: ['$schema', 'type', 'properties'] },
  })
  schema(): Record<string, unknown> {
    return this.bundles.schema();
  }

  @Get('templates')
  @ApiOperation({ summary: 'Templates a new version can start from (source "template")' })
  @ApiOkResponse({ type: TemplateListResponseDto })
  listTemplates(): TemplateListResponseDto {
    return this.bundles.listTemplates();
  }

  @Get('templates/:templateId')
  @ApiOperation({ summary: 'A template with its bundle' })
  @ApiOkResponse({ type: TemplateDetailResponseDto })
  @ApiErrors(404, 422)
  getTemplate(@Param() { templateId }: TemplateIdParams): TemplateDetailResponseDto {
    return this.bundles.getTemplate(templateId);
  }
}
