import { EventBus } from '../../common/bus/event-bus.js';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { Principal } from '../auth/principal.js';
import { selectedRuntime } from '../conversations/thread-list-filter.js';
import type { ListMessagesQueryDto, ListThreadsQueryDto } from './dto/thread-query.dto.js';
import {
  toThread,
  toThreadItem,
  toThreadMessage,
  type ThreadDto,
  type ThreadItemDto,
  type ThreadMessageDto,
} from './dto/thread-response.dto.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ThreadRow } from '../conversations/conversations.types.js';

/** The organization's conversations, read side: list with filters, get, rename, transcript. */
@Injectable()
export class ThreadsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
  ) {}

  async list(who: Principal, query: ListThreadsQueryDto, request: PageRequest): Promise<Page<ThreadItemDto>> {
    return this.conversations.listThreads(who.organizationId, query, request, toThreadItem);
  }

  async get(who: Principal, threadId: string, runtimeVersion: string | undefined): Promise<ThreadDto> {
    return toThread(await this.getVisible(who.organizationId, threadId, runtimeVersion));
  }

  async rename(who: Principal, threadId: string, runtimeVersion: string | undefined, title: string): Promise<ThreadDto> {
    const thread = await this.unitOfWork.run(async () => {
      const before = await this.conversations.findThread(who.organizationId, threadId);
      const renamed = await this.conversations.renameThread(who.organizationId, threadId, selectedRuntime(runtimeVersion), title);
      if (!renamed) throw new NotFoundError('Thread');
      await this.bus.publish('thread.update', {
        actor: who,
        resourceType: 'thread',
        resourceId: renamed.id,
        before: { title: before?.title ?? null },
        after: { title: renamed.title },
      });
      return renamed;
    });
    return toThread(thread);
  }

  async messages(who: Principal, threadId: string, query: ListMessagesQueryDto, request: PageRequest): Promise<Page<ThreadMessageDto>> {
    const thread = await this.getVisible(who.organizationId, threadId, query.runtime_version);
    return this.conversations.transcript(thread.id, query, request, toThreadMessage);
  }

  /**
   * The caller's thread on the selected runtime, or 404: another organization's thread and a thread of the other
   * runtime generation are both "not found" (never 403).
   */
  async getVisible(organizationId: string, threadId: string, runtimeVersion?: string): Promise<ThreadRow> {
    const thread = await this.conversations.findThread(organizationId, threadId);
    if (!thread || thread.runtime !== selectedRuntime(runtimeVersion)) throw new NotFoundError('Thread');
    return thread;
  }

  /** The caller's thread whatever its runtime, or 404 (trace reads: a trace carries its own `runtime`). */
  async findVisible(organizationId: string, threadId: string): Promise<ThreadRow> {
    const thread = await this.conversations.findThread(organizationId, threadId);
    if (!thread) throw new NotFoundError('Thread');
    return thread;
  }
}
