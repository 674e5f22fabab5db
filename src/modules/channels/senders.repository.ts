import { Injectable } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { ListSendersQueryDto } from './dto/sender.dto.js';
import { SenderEntity } from './entities/sender.entity.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 's.created_at', phone_number: 's.phone_number' };
const SORT_VALUE: Record<string, (s: SenderEntity) => string> = {
  created_at: (s) => s.createdAt.toISOString(),
  phone_number: (s) => s.phoneNumber,
};

/** The organization already has this number as a sender of this channel. */
export class SenderTakenError extends Error {}

/** The `senders` table. */
@Injectable()
export class SendersRepository {
  constructor(private readonly sql: SqlService) {}

  /** Inserts the sender; `SenderTakenError` when the organization already has its number on its channel. */
  async create(sender: Omit<SenderEntity, 'createdAt' | 'updatedAt'>): Promise<SenderEntity> {
    try {
      return await this.sql.repository(SenderEntity).save(sender);
    } catch (error) {
      const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
      if (cause instanceof DatabaseError && cause.code === '23505') throw new SenderTakenError(cause.message);
      throw error;
    }
  }

  page<R>(organizationId: string, query: ListSendersQueryDto, request: PageRequest, toItem: (sender: SenderEntity) => R): Promise<Page<R>> {
    const qb = this.sql.repository(SenderEntity).createQueryBuilder('s').where('s.organization_id = :organizationId', { organizationId });
    return paginate(
      qb,
      query,
      {
        sortColumns: SORT_COLUMNS,
        idColumn: 's.id',
        sortValue: (s, sortBy) => SORT_VALUE[sortBy]!(s),
        rowId: (s) => s.id,
        defaultSort: ListSendersQueryDto.defaultSort,
        defaultOrder: ListSendersQueryDto.defaultOrder,
      },
      request,
      toItem,
    );
  }

  find(organizationId: string, senderId: string): Promise<SenderEntity | null> {
    return this.sql.repository(SenderEntity).findOneBy({ id: senderId, organizationId });
  }

  async delete(organizationId: string, senderId: string): Promise<boolean> {
    return Boolean((await this.sql.repository(SenderEntity).delete({ id: senderId, organizationId })).affected);
  }
}
