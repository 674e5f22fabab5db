import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ManagementAuth, MessagingAuth } from './auth.decorator.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';

/** A controller on the management surface: `/management/v1`, session token or organization API key. */
export const ManagementController = (tag: string) =>
  applyDecorators(Controller('management/v1'), ApiTags(tag), ManagementAuth(), ApiErrors(500));

/** A controller on the messaging surface: `/messaging/v1`, client token or agent-scoped session. */
export const MessagingController = (tag: string) =>
  applyDecorators(Controller('messaging/v1'), ApiTags(tag), MessagingAuth(), ApiErrors(500));
