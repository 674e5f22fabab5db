import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import type { Principal } from '../auth/principal.js';
import { ThreadsService } from '../threads/threads.service.js';
import { toTraceRecord, type InteractionTraceQueryDto, type ThreadTraceQueryDto, type TraceRecordDto } from './dto/trace.dto.js';
import { ConversationsService } from '../conversations/conversations.service.js';

/** Reasoning traces of a thread's interactions, or of one interaction. */
@Injectable()
export class TracesService {
  constructor(
    private readonly threads: ThreadsService,
    private readonly conversations: ConversationsService,
  ) {}

  async ofThread(who: Principal, threadId: string, query: ThreadTraceQueryDto, request: PageRequest): Promise<Page<TraceRecordDto>> {
    const thread = await this.threads.findVisible(who.organizationId, threadId);
    if (query.agent_id && thread.agent_id !== query.agent_id.toLowerCase()) throw new NotFoundError('Thread');
    return this.conversations.traces(thread.id, query, request, toTraceRecord);
  }

  /**
   * One interaction's trace. Runtime-v2 interactions are addressed within their thread (`thread_id` required);
   * a `thread_id` or `agent_id` the interaction does not belong to is 404, like another organization's id.
   */
  async ofInteraction(who: Principal, interactionId: string, query: InteractionTraceQueryDto): Promise<TraceRecordDto> {
    const interaction = await this.conversations.trace(who.organizationId, interactionId);
    if (!interaction) throw new NotFoundError('Interaction');
    if (interaction.runtime === 'v2' && !query.thread_id) {
      throw ValidationError.field('thread_id', 'thread_id is required for runtime v2 interactions');
    }
    if (query.thread_id && interaction.thread_id !== query.thread_id.toLowerCase()) throw new NotFoundError('Interaction');
    if (query.agent_id && interaction.agent_id !== query.agent_id.toLowerCase()) throw new NotFoundError('Interaction');
    return toTraceRecord(interaction);
  }
}
