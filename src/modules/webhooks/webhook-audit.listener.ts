import { Injectable } from '@nestjs/common';
import type { WebhookDisabled } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { AuditService } from '../audit/audit.service.js';

/** Records in the audit log that the service disabled an endpoint (410 Gone, or failures in a row). */
@Injectable()
export class WebhookAuditListener {
  constructor(
    private readonly audit: AuditService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  @OnBusEvent('webhook.disabled')
  async disabled(event: WebhookDisabled): Promise<void> {
    await this.unitOfWork.run(() =>
      this.audit.record(
        { kind: 'system', organizationId: event.organizationId, name: 'webhooks' },
        {
          action: 'webhook.disable',
          resourceType: 'webhook',
          resourceId: event.webhookId,
          before: { enabled: true },
          after: { enabled: false, reason: event.reason, consecutive_failures: event.consecutiveFailures, project_id: event.projectId },
        },
      ),
    );
  }
}
