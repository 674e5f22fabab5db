import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { CreateSenderDto, ListSendersQueryDto, SenderIdParams, SenderResponseDto } from './dto/sender.dto.js';
import { SendersService } from './senders.service.js';
import { ChannelsErrorCode } from './channels.errors.js';

@ManagementController('Channels')
export class SendersController {
  constructor(private readonly senders: SendersService) {}

  @Post('senders')
  @ApiOperation({
    summary: 'Connect a sender number for a channel',
    description: 'A WhatsApp or SMS number of your provider account; pass its id as `sender_id` when starting a channel conversation.',
  })
  @ApiExampleBody(CreateSenderDto, {
    whatsapp: {
      summary: 'A WhatsApp number',
      value: { channel: 'whatsapp', phone_number: '+15550100000', display_name: 'Trail Shop support' },
    },
    sms: { summary: 'An SMS number', value: { channel: 'sms', phone_number: '+15550100001' } },
  })
  @ApiCreatedResponse({ type: SenderResponseDto })
  @ApiErrors(413, 415, 422, {
    status: 409,
    code: ChannelsErrorCode.SenderExists,
    message: '+15550100000 is already a whatsapp sender of this organization',
  })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateSenderDto): Promise<SenderResponseDto> {
    return this.senders.create(who, dto);
  }

  @Get('senders')
  @ApiOperation({ summary: "List the organization's sender numbers", description: 'Newest first by default; sortable by phone_number.' })
  @ApiPageResponse(SenderResponseDto)
  @ApiErrors(422)
  list(
    @CurrentPrincipal() who: Principal,
    @Query() query: ListSendersQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<SenderResponseDto>> {
    return this.senders.list(who, query, page);
  }

  @Delete('senders/:senderId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a sender number', description: 'Conversations it started keep their number.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ status: 404, code: 'not_found', message: 'Sender not found' }, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { senderId }: SenderIdParams): Promise<void> {
    return this.senders.delete(who, senderId);
  }
}
