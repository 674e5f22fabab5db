import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { MANAGEMENT_CHANGES, type WebhookDisabled } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { parseDateTime } from '../../common/validation/date-time.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { Principal } from '../auth/principal.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { actorColumns, type AuditActor, type AuditEntry } from './audit.types.js';
import { toAuditEventResponse, type AuditEventResponseDto, type ListAuditEventsQueryDto } from './dto/audit-event.dto.js';
import { currentRequestId } from '../../common/http/request-context.js';

/**
 * A summary larger than this is a bug (bundle contents, a transcript): records stay small. Room for the largest
 * validated field (5,000 characters of notes) even when JSON escapes every character.
 */
const MAX_SUMMARY_CHARS = 65_536;

/**
 * The audit log: one record per management write, appended in the write's own transaction so that a committed
 * change always has its record and a failed (rolled back) one never does. It subscribes, in the transaction, to
 * every management change of the bus (MANAGEMENT_CHANGES, recorded under their name) and to the service's own
 * disabling of a webhook endpoint; no write site calls it. Records are never updated or deleted through the
 * service; the table refuses it too (docs/governance.md "Audit log").
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly events: AuditEventsRepository,
    bus: EventBus,
  ) {
    for (const action of MANAGEMENT_CHANGES) {
      bus.on(action, ({ actor, ...entry }) => this.record(actor, { action, ...entry }), { phase: 'transaction' });
    }
  }

  @OnBusEvent('webhook.disabled', { phase: 'transaction' })
  async webhookDisabled(event: WebhookDisabled): Promise<void> {
    await this.record(
      { kind: 'system', organizationId: event.organizationId, name: 'webhooks' },
      {
        action: 'webhook.disable',
        resourceType: 'webhook',
        resourceId: event.webhookId,
        before: { enabled: true },
        after: { enabled: false, reason: event.reason, consecutive_failures: event.consecutiveFailures, project_id: event.projectId },
      },
    );
  }

  /**
   * Appends one record in the CURRENT transaction (the publisher's): outside one it throws, so a change published
   * without a unit of work fails its tests instead of auditing changes that may still roll back. Write sites publish
   * changes instead of calling it.
   */
  async record(actor: AuditActor, entry: AuditEntry): Promise<void> {
    if (!this.unitOfWork.transaction) {
      throw new Error(`AuditService.record(${entry.action}) must run inside UnitOfWork.run, in the transaction of the write`);
    }
    const before = entry.before ?? null;
    const after = entry.after ?? null;
    for (const summary of [before, after]) {
      if (summary !== null && JSON.stringify(summary).length > MAX_SUMMARY_CHARS) {
        throw new Error(`Audit summary of ${entry.action} exceeds ${MAX_SUMMARY_CHARS} characters: summarize, do not copy`);
      }
    }
    await this.events.insert({
      id: newId(),
      organizationId: actor.organizationId,
      ...actorColumns(actor),
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      requestId: currentRequestId(),
      before,
      after,
    });
  }

  /** One record of the caller's organization, or 404 (never 403). */
  async get(who: Principal, auditEventId: string): Promise<AuditEventResponseDto> {
    const event = await this.events.find(who.organizationId, auditEventId.toLowerCase());
    if (!event) throw new NotFoundError('Audit event');
    return toAuditEventResponse(event);
  }

  list(who: Principal, query: ListAuditEventsQueryDto, request: PageRequest): Promise<Page<AuditEventResponseDto>> {
    if (query.created_from !== undefined && query.created_to !== undefined) {
      if (parseDateTime(query.created_from)! > parseDateTime(query.created_to)!) {
        throw ValidationError.field('created_to', 'created_to must not be before created_from');
      }
    }
    return this.events.page(who.organizationId, query, request, toAuditEventResponse);
  }
}
