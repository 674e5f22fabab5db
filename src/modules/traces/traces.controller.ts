import { Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ThreadIdParams } from '../threads/dto/thread-query.dto.js';
import {
  InteractionIdParams,
  InteractionTraceQueryDto,
  ThreadTraceQueryDto,
  TRACE_RECORD_SCHEMA,
  type TraceRecordDto,
} from './dto/trace.dto.js';
import { TracesService } from './traces.service.js';

@ManagementController('Traces')
@ApiExtraModels(...TRACE_RECORD_SCHEMA.models)
export class TracesController {
  constructor(private readonly traces: TracesService) {}

  @Get('threads/:threadId/trace')
  @ApiOperation({
    summary: 'The reasoning trace of every interaction in a thread, oldest first',
    description: 'Each trace carries `runtime` (`v1` or `v2`), which selects its shape.',
  })
  @ApiPageResponse(TRACE_RECORD_SCHEMA)
  @ApiErrors(404, 422)
  ofThread(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Query() query: ThreadTraceQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<TraceRecordDto>> {
    return this.traces.ofThread(who, threadId, query, page);
  }

  @Get('interactions/:interactionId/trace')
  @ApiOperation({
    summary: 'The reasoning trace of one interaction',
    description: '`thread_id` is required for runtime-v2 interactions and omitted for runtime v1.',
  })
  @ApiOkResponse({ schema: TRACE_RECORD_SCHEMA.schema })
  @ApiErrors(404, 422)
  ofInteraction(
    @CurrentPrincipal() who: Principal,
    @Param() { interactionId }: InteractionIdParams,
    @Query() query: InteractionTraceQueryDto,
  ): Promise<TraceRecordDto> {
    return this.traces.ofInteraction(who, interactionId, query);
  }
}
