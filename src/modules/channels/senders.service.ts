import { EventBus } from '../../common/bus/event-bus.js';
import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { Principal } from '../auth/principal.js';
import { ChannelsErrorCode } from './channels.errors.js';
import { toSenderResponse, type CreateSenderDto, type ListSendersQueryDto, type SenderResponseDto } from './dto/sender.dto.js';
import type { SenderEntity } from './entities/sender.entity.js';
import { SenderTakenError, SendersRepository } from './senders.repository.js';

/** An organization's connected sender numbers (management surface). */
@Injectable()
export class SendersService {
  constructor(
    private readonly senders: SendersRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
  ) {}

  async create(who: Principal, dto: CreateSenderDto): Promise<SenderResponseDto> {
    try {
      const sender = await this.unitOfWork.run(async () => {
        const created = await this.senders.create({
          id: newId(),
          organizationId: who.organizationId,
          channel: dto.channel,
          phoneNumber: dto.phone_number,
          displayName: dto.display_name ?? null,
        });
        await this.bus.publish('sender.create', { actor: who, resourceType: 'sender', resourceId: created.id, after: summary(created) });
        return created;
      });
      return toSenderResponse(sender);
    } catch (error) {
      if (error instanceof SenderTakenError) {
        throw new ConflictError(
          ChannelsErrorCode.SenderExists,
          `${dto.phone_number} is already a ${dto.channel} sender of this organization`,
        );
      }
      throw error;
    }
  }

  list(who: Principal, query: ListSendersQueryDto, request: PageRequest): Promise<Page<SenderResponseDto>> {
    return this.senders.page(who.organizationId, query, request, toSenderResponse);
  }

  /** Removes the sender; conversations it started keep their recorded sender number and continue. */
  async delete(who: Principal, senderId: string): Promise<void> {
    await this.unitOfWork.run(async () => {
      const sender = await this.senders.find(who.organizationId, senderId.toLowerCase());
      if (!sender || !(await this.senders.delete(who.organizationId, sender.id))) throw new NotFoundError('Sender');
      await this.bus.publish('sender.delete', { actor: who, resourceType: 'sender', resourceId: sender.id, before: summary(sender) });
    });
  }

  /** The organization's sender, or 404 — never 403, so other tenants' ids cannot be probed. */
  async getVisible(organizationId: string, senderId: string): Promise<SenderEntity> {
    const sender = await this.senders.find(organizationId, senderId.toLowerCase());
    if (!sender) throw new NotFoundError('Sender');
    return sender;
  }
}

const summary = (sender: SenderEntity) => ({ channel: sender.channel, phone_number: sender.phoneNumber, display_name: sender.displayName });
