import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DatabaseError } from 'pg';
import { QueryFailedError, Repository } from 'typeorm';
import { ConflictError, NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import type { Principal } from '../auth/principal.js';
import { ChannelsErrorCode } from './channels.errors.js';
import { ListSendersQueryDto, toSenderResponse, type CreateSenderDto, type SenderResponseDto } from './dto/sender.dto.js';
import { SenderEntity } from './entities/sender.entity.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 's.created_at', phone_number: 's.phone_number' };
const SORT_VALUE: Record<string, (s: SenderEntity) => string> = {
  created_at: (s) => s.createdAt.toISOString(),
  phone_number: (s) => s.phoneNumber,
};

/** An organization's connected sender numbers (management surface). */
@Injectable()
export class SendersService {
  constructor(@InjectRepository(SenderEntity) private readonly senders: Repository<SenderEntity>) {}

  async create(who: Principal, dto: CreateSenderDto): Promise<SenderResponseDto> {
    try {
      const sender = await this.senders.save({
        id: newId(),
        organizationId: who.organizationId,
        channel: dto.channel,
        phoneNumber: dto.phone_number,
        displayName: dto.display_name ?? null,
      });
      return toSenderResponse(sender);
    } catch (error) {
      const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
      if (cause instanceof DatabaseError && cause.code === '23505') {
        throw new ConflictError(
          ChannelsErrorCode.SenderExists,
          `${dto.phone_number} is already a ${dto.channel} sender of this organization`,
        );
      }
      throw error;
    }
  }

  list(who: Principal, query: ListSendersQueryDto, request: PageRequest): Promise<Page<SenderResponseDto>> {
    const qb = this.senders.createQueryBuilder('s').where('s.organization_id = :organizationId', { organizationId: who.organizationId });
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
      toSenderResponse,
    );
  }

  /** Removes the sender; conversations it started keep their recorded sender number and continue. */
  async delete(who: Principal, senderId: string): Promise<void> {
    const result = await this.senders.delete({ id: senderId.toLowerCase(), organizationId: who.organizationId });
    if (!result.affected) throw new NotFoundError('Sender');
  }

  /** The organization's sender, or 404 — never 403, so other tenants' ids cannot be probed. */
  async getVisible(organizationId: string, senderId: string): Promise<SenderEntity> {
    const sender = await this.senders.findOneBy({ id: senderId.toLowerCase(), organizationId });
    if (!sender) throw new NotFoundError('Sender');
    return sender;
  }
}
