import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { BUNDLE_SCHEMA } from './bundle.schema.js';
import type { Bundle } from './bundle.types.js';
import {
  toTemplateDetailResponse,
  toTemplateResponse,
  type TemplateDetailResponseDto,
  type TemplateListResponseDto,
} from './dto/template.dto.js';
import type { BundleTemplate } from './templates/template.js';
import { TEMPLATES } from './templates/templates.registry.js';

/** The published bundle schema and the templates shipped with the service. */
@Injectable()
export class BundlesService {
  schema(): Record<string, unknown> {
    return structuredClone(BUNDLE_SCHEMA) as unknown as Record<string, unknown>;
  }

  listTemplates(): TemplateListResponseDto {
    return { results: TEMPLATES.map(toTemplateResponse) };
  }

  getTemplate(templateId: string): TemplateDetailResponseDto {
    return toTemplateDetailResponse(this.findTemplate(templateId));
  }

  /** A template's bundle, deep-copied so callers may change it; undefined for an unknown id. */
  templateBundle(templateId: string): Bundle | undefined {
    const template = TEMPLATES.find((t) => t.id === templateId);
    return template ? structuredClone(template.bundle) : undefined;
  }

  private findTemplate(templateId: string): BundleTemplate {
    const template = TEMPLATES.find((t) => t.id === templateId);
    if (!template) throw new NotFoundError('Template');
    return template;
  }
}
