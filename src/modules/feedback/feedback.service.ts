import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { toFeedbackResponse, type FeedbackDto, type FeedbackResponseDto, type ListFeedbackQueryDto } from './dto/feedback.dto.js';
import { FeedbackRepository } from './feedback.repository.js';

/** Who rates: the messaging caller, acting as one agent (client token or agent-scoped session). */
export interface FeedbackCaller {
  organizationId: string;
  agentId: string;
}

/**
 * End users' ratings of agent messages (docs/evaluations.md "Feedback"): over HTTP and the WebSocket session, the
 * latest rating of a message stands. A rating is announced in its transaction (`message.feedback`): the webhook outbox
 * writes the signed `message.feedback` delivery and the analytics roll-up counts it, both committing with it.
 */
@Injectable()
export class FeedbackService {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
  ) {}

  /** Rates one of the agent's replies; 404 for anything else (another agent's or tenant's message, an end-user message). */
  async rate(caller: FeedbackCaller, messageId: string, dto: FeedbackDto): Promise<FeedbackResponseDto> {
    const message = await this.conversations.agentMessage(caller.organizationId, caller.agentId, messageId);
    if (!message) throw new NotFoundError('Message');
    const row = await this.unitOfWork.run(async () => {
      const { row, previous } = await this.feedback.rate({
        id: newId(),
        organization_id: caller.organizationId,
        agent_id: caller.agentId,
        thread_id: message.thread_id,
        message_id: message.id,
        interaction_id: message.interaction_id,
        user_id: message.user_id,
        version_id: message.version_id,
        version_tag: message.version_tag,
        rating: dto.rating,
        comment: dto.comment ?? null,
        created_at: new Date(),
      });
      await this.bus.publish('message.feedback', {
        organizationId: row.organization_id,
        projectId: message.project_id,
        agentId: row.agent_id,
        threadId: row.thread_id,
        messageId: row.message_id,
        interactionId: row.interaction_id,
        userId: row.user_id,
        versionId: row.version_id,
        versionTag: row.version_tag,
        rating: row.rating,
        previousRating: previous,
        comment: row.comment,
        createdAt: row.created_at,
        turnCreatedAt: message.turn_created_at,
      });
      return row;
    });
    return toFeedbackResponse(row);
  }

  /** The agent's ratings for operators, newest first, filtered by rating, revision, thread or end user. */
  async list(who: Principal, agentId: string, query: ListFeedbackQueryDto, request: PageRequest): Promise<Page<FeedbackResponseDto>> {
    const agent = await this.agents.findVisible(who.organizationId, agentId);
    if (!agent) throw new NotFoundError('Agent');
    return this.feedback.page(agent.organizationId, agent.id, query, request, toFeedbackResponse);
  }
}
