import type { IncomingMessage } from 'node:http';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayDisconnect } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { SessionService } from './session.service.js';

/** The session's route (documented in openapi.json under `x-websocket`). */
export const SESSION_PATH = '/messaging/v1/session';

/**
 * `GET /messaging/v1/session` (WebSocket upgrade; BASE_PATH applies, see SessionWsAdapter). HTTP guards do not run on
 * the handshake, so the session authenticates the upgrade request itself (SessionService) and closes with 1008.
 */
@WebSocketGateway({
  path: SESSION_PATH,
  handleProtocols: (protocols: Set<string>) => SessionService.selectProtocol(protocols),
  perMessageDeflate: false,
})
export class SessionGateway implements OnGatewayConnection, OnGatewayDisconnect {
  constructor(private readonly sessions: SessionService) {}

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    this.sessions.open(socket, request);
  }

  handleDisconnect(socket: WebSocket): void {
    this.sessions.close(socket);
  }
}
