import { Body, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { MULTIPART_ROUTE } from '../../common/http/body-parsers.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { PushResponseDto } from '../versions/dto/version-response.dto.js';
import { AgentVersionParams } from '../versions/dto/version-params.dto.js';
import {
  KNOWLEDGE_UPLOAD_BODY,
  KnowledgeDocumentParams,
  KnowledgeListDto,
  KnowledgeSearchDto,
  KnowledgeSearchResponseDto,
  KnowledgeUploadResponseDto,
} from './dto/knowledge.dto.js';
import { readUpload } from './knowledge-upload.reader.js';
import { KnowledgeService } from './knowledge.service.js';

const VERSION_ARCHIVED = { status: 409, code: 'version_archived', message: 'Version 2 is archived and takes no new revisions' };

@ManagementController('Knowledge')
@ApiErrors(400, 403, 404, 409, 422)
export class KnowledgeController {
  constructor(private readonly knowledge: KnowledgeService) {}

  @Post('agents/:agentId/versions/:versionId/knowledge')
  @HttpCode(200)
  @RouteConfig(MULTIPART_ROUTE)
  @ApiOperation({
    summary: "Upload files into the version's knowledge: a new revision, like a push",
    description:
      'Markdown, HTML and plain text files (UTF-8), split into documents by h1–h3 headings (docs/knowledge.md). A file uploaded again replaces the documents its earlier upload made. Any unusable file is 422 with details[].field `files["<name>"]` and nothing changes; an archived version is 409 `version_archived`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(KNOWLEDGE_UPLOAD_BODY)
  @ApiOkResponse({ type: KnowledgeUploadResponseDto })
  @ApiErrors(404, 415, 422, VERSION_ARCHIVED)
  upload(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Req() request: FastifyRequest,
  ): Promise<KnowledgeUploadResponseDto> {
    return this.knowledge.upload(who, agentId, versionId, () => readUpload(request));
  }

  @Get('agents/:agentId/versions/:versionId/knowledge')
  @ApiOperation({
    summary: "List the documents of the version's knowledge",
    description: "The documents of the version's current revision, in bundle order, without their text.",
  })
  @ApiOkResponse({ type: KnowledgeListDto })
  @ApiErrors(404, 422)
  list(@CurrentPrincipal() who: Principal, @Param() { agentId, versionId }: AgentVersionParams): Promise<KnowledgeListDto> {
    return this.knowledge.list(who, agentId, versionId);
  }

  @Post('agents/:agentId/versions/:versionId/knowledge/search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Try a question: the passages the version would answer it from',
    description:
      "Runs the grounded engine's retrieval on the version's current revision (as a turn would, embeddings included) and says whether it would answer or decline. No turn is recorded and no model is called.",
  })
  @ApiExampleBody(KnowledgeSearchDto, {
    question: { summary: 'A question as an end user would ask it', value: { query: 'How long do refunds take?' } },
  })
  @ApiOkResponse({ type: KnowledgeSearchResponseDto })
  @ApiErrors(404, 422)
  search(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId }: AgentVersionParams,
    @Body() body: KnowledgeSearchDto,
  ): Promise<KnowledgeSearchResponseDto> {
    return this.knowledge.search(who, agentId, versionId, body.query);
  }

  @Delete('agents/:agentId/versions/:versionId/knowledge/:documentId')
  @ApiOperation({
    summary: "Remove one document from the version's knowledge",
    description: 'Commits a new revision without it, like a push. 404 when the current revision has no such document.',
  })
  @ApiOkResponse({ type: PushResponseDto })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Document not found' }, 422, VERSION_ARCHIVED)
  remove(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, versionId, documentId }: KnowledgeDocumentParams,
  ): Promise<PushResponseDto> {
    return this.knowledge.remove(who, agentId, versionId, documentId);
  }
}
