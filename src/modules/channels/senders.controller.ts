import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import type { Principal } from '../auth/principal.js';
import { CreateSenderDto, ListSendersQueryDto, SenderIdParams, SenderResponseDto } from './dto/sender.dto.js';
import { SendersService } from './senders.service.js';

@ManagementController('Channels')
export class SendersController {
  constructor(private readonly senders: SendersService) {}

  @Post('senders')
  @ApiOperation({ summary: 'Connect a sender number for a channel (WhatsApp or SMS)' })
  @ApiCreatedResponse({ type: SenderResponseDto })
  @ApiErrors(409, 413, 415, 422)
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateSenderDto): Promise<SenderResponseDto> {
    return this.senders.create(who, dto);
  }

  @Get('senders')
  @ApiOperation({ summary: "List the organization's sender numbers" })
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
  @ApiOperation({ summary: 'Remove a sender number; conversations it started keep their number' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { senderId }: SenderIdParams): Promise<void> {
    return this.senders.delete(who, senderId);
  }
}
