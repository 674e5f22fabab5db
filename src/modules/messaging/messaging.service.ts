import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import type { FollowupSuggestionsResponseDto, WelcomeMessageResponseDto } from './dto/message-response.dto.js';
import { LiveAgentsService } from './live-agents.service.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ThreadState } from '../conversations/conversations.types.js';
import type { TurnCaller } from './turn.types.js';

/**
 * The messaging reads around turns: the greeting and follow-up suggestions. Turns themselves run through
 * `TurnPipeline`, whatever the surface.
 */
@Injectable()
export class MessagingService {
  constructor(
    private readonly live: LiveAgentsService,
    private readonly runtime: RuntimeService,
    private readonly conversations: ConversationsService,
  ) {}

  /**
   * The live version's greeting; with `userId`, the greeting of the arm a new thread of that end user gets (the caller,
   * channels, has just routed that user: the cache lookup is not counted twice).
   */
  async welcome(caller: TurnCaller, userId?: string): Promise<WelcomeMessageResponseDto> {
    const agent =
      userId === undefined
        ? await this.live.get(caller.organizationId, caller.agentId)
        : await this.live.route(caller.organizationId, caller.agentId, { userId, versionId: null, revisionId: null }, 'already_counted');
    return this.runtime.welcome(agent.prepared);
  }

  async followupSuggestions(
    caller: TurnCaller,
    body: { thread_id?: string; text?: string; limit?: number },
  ): Promise<FollowupSuggestionsResponseDto> {
    const agent = await this.live.get(caller.organizationId, caller.agentId);
    let history: ThreadState['history'] = [];
    if (body.thread_id) {
      const thread = await this.conversations.threadState(caller.organizationId, caller.agentId, body.thread_id);
      if (!thread) throw new NotFoundError('Thread');
      history = thread.history;
    }
    return { followup_suggestions: this.runtime.suggest(agent.prepared, { text: body.text, history }, body.limit ?? 3) };
  }
}
