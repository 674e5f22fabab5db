import { Body, Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../../common/errors/error-envelope.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { withSpan } from '../../telemetry/tracing.js';
import { Auth, CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, Credential, type Principal } from '../auth/principal.js';
import { CreateEventDto, EventAcceptedDto, EventIdParams, EventStatusDto } from './dto/event.dto.js';
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
  @Post('events')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue an event that triggers the agent asynchronously; 202 once the event is stored durably' })
  @ApiBody({ type: CreateEventDto })
  @ApiAcceptedResponse({ type: EventAcceptedDto })
  @ApiErrors(422, 502)
  @ApiResponse({
    status: 404,
    type: ErrorEnvelopeDto,
    description:
      'The agent was deleted (`not_found`), has no published version (`webhooks.no_active_version`), or its active version must be republished (`webhooks.no_runtime_version`)',
  })
  @ApiResponse({ status: 413, type: ErrorEnvelopeDto, description: 'The body exceeds 1 MiB (`webhooks.payload_too_large`)' })
  @ApiResponse({
    status: 503,
    type: ErrorEnvelopeDto,
    description: 'Ingestion is shedding load or shutting down (`internal_error`, see Retry-After); the event was not queued',
  })
  async create(@CurrentPrincipal() who: Principal, @Body() body: Record<string, unknown>): Promise<EventAcceptedDto> {
    return { event_id: await withSpan('event.accept', () => this.ingest.accept(who.organizationId, actingAgentId(who), body)) };
  }

  @Get('events/:eventId')
  @ApiOperation({ summary: "An event's processing status (events of this key's agent only)" })
  @ApiOkResponse({ type: EventStatusDto })
  @ApiErrors(404, 422)
  status(@CurrentPrincipal() who: Principal, @Param() { eventId }: EventIdParams): Promise<EventStatusDto> {
    return this.events.status(who.organizationId, actingAgentId(who), eventId);
  }
}
