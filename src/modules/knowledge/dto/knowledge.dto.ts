import { ApiProperty, type ApiBodyOptions } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { PushResponseDto } from '../../versions/dto/version-response.dto.js';
import { UPLOAD_LIMITS } from '../knowledge-files.js';

export class KnowledgeDocumentParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: "Id of one of this agent's versions" })
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
  @ApiProperty({ example: 'Returns › Refunds', description: 'The document title (file heading path)' }) title: string;
  @ApiProperty({ type: String, nullable: true, description: 'Link to the source, cited in replies; null when none' }) url: string | null;
  @ApiProperty({ type: 'integer', description: 'Length of the text, in characters' }) characters: number;
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
        // maxLength of a binary string: its bytes.
        items: { type: 'string', format: 'binary', maxLength: UPLOAD_LIMITS.fileBytes },
      },
      message: { type: 'string', maxLength: UPLOAD_LIMITS.messageChars, description: 'The revision message (default: the file names)' },
    },
  },
  // In a multipart example each `files` item stands for the content of one uploaded Markdown file.
  examples: {
    markdown: {
      summary: 'One Markdown file (each files item is the content of a .md file)',
      value: {
        files: ['# Returns\n\nItems can be returned within 30 days.\n\n## Refunds\n\nRefunds reach your card within 5 business days.'],
        message: 'Add the returns policy',
      },
    },
  },
};

/** "Try a question": what the version's knowledge would answer it from. */
export class KnowledgeSearchDto {
  @ApiProperty({
    example: 'How long do refunds take?',
    minLength: 1,
    maxLength: 2000,
    description: 'The question, as an end user would ask it',
  })
  @IsString()
  @Length(1, 2000)
  query: string;
}

export class KnowledgePassageDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'Order in which the reply would use it (its citation marker)' }) rank: number;
  @ApiProperty({ example: 'returns.md:refunds#p1', description: 'The passage (a chunk of a document)' }) passage_id: string;
  @ApiProperty({ example: 'returns.md:refunds', description: 'Its document' }) document_id: string;
  @ApiProperty({ example: 'Returns › Refunds', description: 'Its document’s title' }) title: string;
  @ApiProperty({ example: 7.42, description: 'Retrieval score (higher is better; comparable within one answer only)' }) score: number;
  @ApiProperty({ description: 'The passage text' }) text: string;
}

export class KnowledgeConsideredDto {
  @ApiProperty({ description: 'A document with matching passages' }) document_id: string;
  @ApiProperty({ description: 'Its title' }) title: string;
  @ApiProperty({ type: 'integer', description: 'How many of its passages matched' }) passages_considered: number;
}

export class KnowledgeSearchResponseDto {
  @ApiProperty({ description: 'The version searched' }) version_id: string;
  @ApiProperty({ example: 'v3.2', description: 'Its current revision, whose knowledge was searched' }) version_tag: string;
  @ApiProperty({ description: 'Whether the agent would answer (true) or decline (false: nothing covers the question well enough)' })
  answerable: boolean;
  @ApiProperty({
    type: [KnowledgePassageDto],
    description: 'The passages a reply would use, in citation order (empty when it would decline)',
  })
  results: KnowledgePassageDto[];
  @ApiProperty({ type: [KnowledgeConsideredDto], description: 'Every document with matching passages, best first' })
  considered: KnowledgeConsideredDto[];
  @ApiProperty({ description: 'The engine’s own account of the decision, in plain language' }) narrative: string;
}
