import { Body, Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { withSpan } from '../../telemetry/tracing.js';
import { Auth, CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, Credential, type Principal } from '../auth/principal.js';
import { CreateEventDto, EventAcceptedDto, EventIdParams, EventStatusDto } from './dto/event.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { IdempotentResourceId } from '../idempotency/idempotency-context.js';
import { EventsErrorCode } from './events.errors.js';
import { EventsErrorFilter } from './events-error.filter.js';
import { EventsIngestService } from './events-ingest.service.js';
import { EventsService } from './events.service.js';

/** Events webhook (spec "Events webhook (inbound)"), authenticated by the agent API key. */
@Controller('messaging/v1')
@ApiTags('Events webhook')
@Auth(Credential.AgentApiKey)
@ApiErrors(500)
@UseFilters(EventsErrorFilter)
export class EventsController {
  constructor(
    private readonly ingest: EventsIngestService,
    private readonly events: EventsService,
  ) {}

  /** The body is taken raw (metatype Object skips the global pipe): unknown top-level fields are ignored, not rejected. */
  @Idempotent()
  @Post('events')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queue an event that triggers the agent asynchronously',
    description:
      'Answers 202 once the event is stored durably; the agent runs it in the background. Poll GET /messaging/v1/events/{eventId} ' +
      'for its status; the turn lands in the thread named by your `thread_id` (threads list `external_id`).',
  })
  @ApiExampleBody(CreateEventDto, {
    delivered: {
      summary: 'An order event on a conversation of yours',
      value: { text: 'Order 1042 was delivered', agent_variables: { order_id: 1042, user_id: 'user-42' }, thread_id: 'order-1042' },
    },
    variables: { summary: 'Variables only, new conversation', value: { agent_variables: { cart_total: 120 } } },
  })
  @ApiAcceptedResponse({ type: EventAcceptedDto })
  @ApiErrors(
    {
      status: 422,
      code: 'validation_error',
      message: 'The request is invalid',
      details: [{ field: 'text', message: 'text must be a string' }],
    },
    {
      status: 502,
      code: 'upstream_unavailable',
      message: 'The event could not be queued: the event store is unreachable; retry with backoff',
    },
    {
      status: 404,
      code: EventsErrorCode.NoActiveVersion,
      message: 'The agent has no published version; publish one to let it answer',
      description:
        'The agent was deleted (`not_found`), has no published version (`webhooks.no_active_version`), or its active version must be republished (`webhooks.no_runtime_version`)',
    },
    {
      status: 413,
      code: EventsErrorCode.PayloadTooLarge,
      message: 'The request body exceeds 1048576 bytes',
      description: 'The body exceeds 1 MiB (`webhooks.payload_too_large`)',
    },
    {
      status: 503,
      code: 'internal_error',
      message: 'Event ingestion is overloaded; retry after 5 seconds',
      description: 'Ingestion is shedding load or shutting down (`internal_error`, see Retry-After); the event was not queued',
    },
  )
  async create(
    @CurrentPrincipal() who: Principal,
    @Body() body: Record<string, unknown>,
    @IdempotentResourceId() eventId: string | undefined,
  ): Promise<EventAcceptedDto> {
    return { event_id: await withSpan('event.accept', () => this.ingest.accept(who.organizationId, actingAgentId(who), body, eventId)) };
  }

  @Get('events/:eventId')
  @ApiOperation({
    summary: "An event's processing status",
    description: "queued → processing → completed or failed; `thread_id` once processed. Events of this key's agent only (others are 404).",
  })
  @ApiOkResponse({ type: EventStatusDto })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Event not found' }, 422)
  status(@CurrentPrincipal() who: Principal, @Param() { eventId }: EventIdParams): Promise<EventStatusDto> {
    return this.events.status(who.organizationId, actingAgentId(who), eventId);
  }
}
