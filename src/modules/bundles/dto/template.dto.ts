import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { MaxChars } from '../../../common/validation/char-length.js';
import type { BundleTemplate } from '../templates/template.js';

export class TemplateIdParams {
  @ApiProperty({ example: 'shopping-assistant', description: 'A template id from GET /management/v1/templates' })
  @IsString()
  @MaxChars(100)
  @Matches(/^[a-z0-9-]+$/, { message: 'templateId must be a template id such as shopping-assistant' })
  templateId: string;
}

export class TemplateResponseDto {
  @ApiProperty({ example: 'shopping-assistant', description: 'Pass as `template` when creating a version with source "template"' })
  id: string;
  @ApiProperty({ example: 'Shopping assistant', description: 'Display name' }) name: string;
  @ApiProperty({ description: 'What an agent built from it does' }) description: string;
  @ApiProperty({ enum: ['v1', 'v2'], description: 'The runtime the template is written for' }) runtime: 'v1' | 'v2';
}

export class TemplateListResponseDto {
  @ApiProperty({ type: [TemplateResponseDto], description: 'Every template' }) results: TemplateResponseDto[];
}

export class TemplateDetailResponseDto extends TemplateResponseDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The bundle (see GET /management/v1/bundle-schema)' })
  bundle: Record<string, unknown>;
}

export const toTemplateResponse = (t: BundleTemplate): TemplateResponseDto => ({
  id: t.id,
  name: t.name,
  description: t.description,
  runtime: t.runtime,
});

export const toTemplateDetailResponse = (t: BundleTemplate): TemplateDetailResponseDto => ({
  ...toTemplateResponse(t),
  bundle: structuredClone(t.bundle) as Record<string, unknown>,
});
