import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { AuditEventEntity } from './audit-event.entity.js';
import { ListAuditEventsQueryDto } from './dto/audit-event.dto.js';

/** The `audit_events` table: append-only (a trigger refuses UPDATE and DELETE, see the migration). */
@Injectable()
export class AuditEventsRepository {
  constructor(private readonly sql: SqlService) {}

  /** Appends one record through the current transaction's manager. */
  async insert(event: Omit<AuditEventEntity, 'createdAt'>): Promise<void> {
    await this.sql.repository(AuditEventEntity).insert(event);
  }

  find(organizationId: string, id: string): Promise<AuditEventEntity | null> {
    return this.sql.repository(AuditEventEntity).findOneBy({ id, organizationId });
  }

  page<R>(
    organizationId: string,
    query: ListAuditEventsQueryDto,
    request: PageRequest,
    toItem: (e: AuditEventEntity) => R,
  ): Promise<Page<R>> {
    const qb = this.sql
      .repository(AuditEventEntity)
      .createQueryBuilder('a')
      .where('a.organization_id = :organizationId', { organizationId });
    if (query.resource_type !== undefined) qb.andWhere('a.resource_type = :resourceType', { resourceType: query.resource_type });
    if (query.resource_id !== undefined) qb.andWhere('a.resource_id = :resourceId', { resourceId: query.resource_id });
    if (query.actor_id !== undefined) qb.andWhere('a.actor_id = :actorId', { actorId: query.actor_id });
    if (query.action !== undefined) qb.andWhere('a.action = :action', { action: query.action });
    if (query.created_from !== undefined) qb.andWhere('a.created_at >= :from::timestamptz', { from: query.created_from });
    if (query.created_to !== undefined) qb.andWhere('a.created_at < :to::timestamptz', { to: query.created_to });
    return paginate(
      qb,
      query,
      {
        sortColumns: { created_at: 'a.created_at' },
        idColumn: 'a.id',
        sortValue: (e) => e.createdAt.toISOString(),
        rowId: (e) => e.id,
        defaultSort: ListAuditEventsQueryDto.defaultSort,
        defaultOrder: ListAuditEventsQueryDto.defaultOrder,
      },
      request,
      toItem,
    );
  }
}
