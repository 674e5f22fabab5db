import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '../../common/pagination/page.dto.js';
import { ApiPageResponse } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { AuditService } from './audit.service.js';
import { AuditEventIdParams, AuditEventResponseDto, ListAuditEventsQueryDto } from './dto/audit-event.dto.js';

@ManagementController('Audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('audit-events')
  @ApiOperation({
    summary: "List the organization's audit records",
    description:
      'Every management write, newest first: who (credential kind and id, user id of a login session), what (action, resource, ' +
      'before/after summaries without secrets), when and the request id. Filter by resource, actor, action and time range; page ' +
      'with `page[after]`/`page[before]` from `meta`. Records are append-only.',
  })
  @ApiPageResponse(AuditEventResponseDto)
  @ApiErrors(422)
  list(
    @CurrentPrincipal() who: Principal,
    @Query() query: ListAuditEventsQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<AuditEventResponseDto>> {
    return this.audit.list(who, query, page);
  }

  @Get('audit-events/:auditEventId')
  @ApiOperation({ summary: 'Get an audit record', description: "Another organization's record is 404." })
  @ApiOkResponse({ type: AuditEventResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { auditEventId }: AuditEventIdParams): Promise<AuditEventResponseDto> {
    return this.audit.get(who, auditEventId);
  }
}
