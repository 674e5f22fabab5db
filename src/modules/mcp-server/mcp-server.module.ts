import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { McpServerController } from './mcp-server.controller.js';
import { McpServerService } from './mcp-server.service.js';

/** `POST /mcp`: agents as MCP servers, a surface of the turn pipeline (docs/mcp.md). */
@Module({
  imports: [AuthModule, MessagingModule],
  controllers: [McpServerController],
  providers: [McpServerService],
})
export class McpServerModule {}
