import { applyDecorators, Controller, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ManagementAuth, MessagingAuth } from './auth.decorator.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { requestContextInterceptor } from '../../../common/http/request-context.js';

/**
 * A controller on the management surface: `/management/v1`, session token or organization API key. Its handlers
 * run with the request id in context, for the audit records of their writes.
 */
export const ManagementController = (tag: string) =>
  applyDecorators(Controller('management/v1'), ApiTags(tag), ManagementAuth(), ApiErrors(500), UseInterceptors(requestContextInterceptor));

/** A controller on the messaging surface: `/messaging/v1`, client token or agent-scoped session. */
export const MessagingController = (tag: string) =>
  applyDecorators(Controller('messaging/v1'), ApiTags(tag), MessagingAuth(), ApiErrors(500));
