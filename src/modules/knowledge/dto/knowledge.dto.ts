import { ApiProperty, type ApiBodyOptions } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { PushResponseDto } from '../../versions/dto/version-response.dto.js';
import { UPLOAD_LIMITS } from '../knowledge-files.js';

export class KnowledgeDocumentParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$' })
  @IsId()
  versionId: string;

  @ApiProperty({ description: 'A document id of the bundle’s `knowledge` (percent-encoded in the path)', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  documentId: string;
}

/** A knowledge document without its text. */
export class KnowledgeDocumentItemDto {
  @ApiProperty({
    example: 'returns.md:refunds',
    description: 'The id in the bundle; an uploaded file’s documents are `<file>` and `<file>:<heading>`',
  })
  id: string;
  @ApiProperty({ example: 'Returns › Refunds' }) title: string;
  @ApiProperty({ type: String, nullable: true }) url: string | null;
  @ApiProperty({ description: 'Length of the text, in characters' }) characters: number;
}

export class KnowledgeListDto {
  @ApiProperty({ description: 'The version listed' }) version_id: string;
  @ApiProperty({ example: 'v3.2', description: 'Its current revision, whose documents these are' }) version_tag: string;
  @ApiProperty({ type: [KnowledgeDocumentItemDto], description: 'In bundle order (at most 2000, the bundle’s limit)' })
  results: KnowledgeDocumentItemDto[];
}

export class KnowledgeUploadResponseDto extends PushResponseDto {
  @ApiProperty({ type: [KnowledgeDocumentItemDto], description: 'The documents the files made, in file order' })
  documents: KnowledgeDocumentItemDto[];
  @ApiProperty({ type: [String], description: 'Documents of earlier uploads of the same files that these replaced' })
  replaced: string[];
}

/** The multipart body, for the OpenAPI document (the route reads the parts itself). */
export const KNOWLEDGE_UPLOAD_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    required: ['files'],
    properties: {
      files: {
        type: 'array',
        minItems: 1,
        maxItems: UPLOAD_LIMITS.files,
        description: `Markdown (.md, .markdown), HTML (.html, .htm) or plain text (.txt), UTF-8; at most ${UPLOAD_LIMITS.fileBytes} bytes each and ${UPLOAD_LIMITS.totalBytes} in all`,
        items: { type: 'string', format: 'binary' },
      },
      message: { type: 'string', maxLength: UPLOAD_LIMITS.messageChars, description: 'The revision message (default: the file names)' },
    },
  },
};
