import { Body, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import {
  ListMessagesQueryDto,
  ListThreadsQueryDto,
  RenameThreadDto,
  RuntimeVersionQueryDto,
  ThreadIdParams,
} from './dto/thread-query.dto.js';
import { ThreadDto, ThreadItemDto, ThreadMessageDto } from './dto/thread-response.dto.js';
import { ThreadsService } from './threads.service.js';
import { EraseUserThreadsQueryDto, UserErasureResponseDto } from '../retention/dto/erasure.dto.js';
import { ThreadDeletionService } from '../retention/thread-deletion.service.js';

@ManagementController('Threads')
export class ThreadsController {
  constructor(
    private readonly threads: ThreadsService,
    private readonly deletion: ThreadDeletionService,
  ) {}

  @Get('threads')
  @ApiOperation({
    summary: "List the organization's threads, newest first",
    description:
      'Repeatable filters combine with OR within a field and AND across fields. `runtime_version` other than `1` lists runtime-v2 threads and requires `agent_id` or `user_id`.',
  })
  @ApiPageResponse(ThreadItemDto)
  @ApiErrors(422)
  list(
    @CurrentPrincipal() who: Principal,
    @Query() query: ListThreadsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<ThreadItemDto>> {
    return this.threads.list(who, query, page);
  }

  @Delete('threads')
  @ApiOperation({
    summary: "Delete all of an end user's threads (erasure)",
    description:
      'Deletes now every thread of `user_id` in the organization, with its messages, traces, channel messages, events and stream replay buffers, in batches; usage totals stay the same. Answers the counts. A later send naming one of those threads is 404.',
  })
  @ApiOkResponse({ type: UserErasureResponseDto })
  @ApiErrors(422)
  eraseUser(@CurrentPrincipal() who: Principal, @Query() { user_id }: EraseUserThreadsQueryDto): Promise<UserErasureResponseDto> {
    return this.deletion.eraseUser(who, user_id);
  }

  @Get('threads/:threadId')
  @ApiOperation({ summary: 'Get a thread', description: 'A thread of the other runtime generation than `runtime_version` selects is 404.' })
  @ApiOkResponse({ type: ThreadDto })
  @ApiErrors(404, 422)
  get(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Query() { runtime_version }: RuntimeVersionQueryDto,
  ): Promise<ThreadDto> {
    return this.threads.get(who, threadId, runtime_version);
  }

  @Patch('threads/:threadId')
  @ApiOperation({ summary: 'Rename a thread', description: 'Sets its title (shown in lists); returns the full updated thread.' })
  @ApiExampleBody(RenameThreadDto, { title: { summary: 'A clearer title', value: { title: 'Trail shoes under $100' } } })
  @ApiOkResponse({ type: ThreadDto })
  @ApiErrors(404, 413, 415, 422)
  rename(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Query() { runtime_version }: RuntimeVersionQueryDto,
    @Body() dto: RenameThreadDto,
  ): Promise<ThreadDto> {
    return this.threads.rename(who, threadId, runtime_version, dto.title);
  }

  @Delete('threads/:threadId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a thread (erasure)',
    description:
      'Deletes the thread now, whatever its runtime, with its messages, traces, channel messages, events and stream replay buffers; usage totals stay the same. A later send naming it is 404.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404, 422)
  erase(@CurrentPrincipal() who: Principal, @Param() { threadId }: ThreadIdParams): Promise<void> {
    return this.deletion.eraseThread(who, threadId);
  }

  @Get('threads/:threadId/messages')
  @ApiOperation({
    summary: "A thread's transcript, oldest first",
    description: 'Each interaction yields the end-user message (when it had text or an image) and the agent reply, in turn order.',
  })
  @ApiPageResponse(ThreadMessageDto)
  @ApiErrors(404, 422)
  messages(
    @CurrentPrincipal() who: Principal,
    @Param() { threadId }: ThreadIdParams,
    @Query() query: ListMessagesQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<ThreadMessageDto>> {
    return this.threads.messages(who, threadId, query, page);
  }
}
