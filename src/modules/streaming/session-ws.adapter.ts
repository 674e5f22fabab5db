import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../../common/errors/error-code.js';
import { writeErrorAndClose } from '../../common/errors/protocol-errors.js';
import { requestIdFrom } from '../../common/http/request-id.js';
import { AppConfig } from '../../config/app-config.js';

/**
 * The `ws` adapter for the messaging WebSocket session:
 * - gateway paths honour BASE_PATH (`@WebSocketGateway({ path })` is fixed at import time), and the legacy base
 *   path (`BASE_PATH` + `-v2`) upgrades too, like every HTTP route;
 * - frames are not parsed here: the gateway reads its own JSON frames (`{type, ...}`, docs/streaming.md),
 *   so the adapter's `{event, data}` dispatch is switched off;
 * - frames over SESSION_MAX_FRAME_BYTES are not read: `ws` closes the session with 1009 (bounds memory per frame);
 * - a handshake `ws` refuses (wrong method, missing or bad Sec-WebSocket-* headers) is answered in the envelope
 *   with a request id, like every HTTP answer, instead of `ws`'s bare text.
 */
export class SessionWsAdapter extends WsAdapter {
  private legacyRewrite = false;
  private readonly maxFrameBytes: number;

  constructor(
    app: INestApplicationContext,
    private readonly basePath: string,
    private readonly securityHeaders: Record<string, string>,
  ) {
    super(app, { messageParser: () => undefined });
    this.maxFrameBytes = app.get(AppConfig).session.maxFrameBytes;
  }

  override create(port: number, options: Record<string, unknown> & { path?: string } = {}): ReturnType<WsAdapter['create']> {
    const server = super.create(port, { ...options, path: `${this.basePath}${options.path ?? ''}`, maxPayload: this.maxFrameBytes });
    server.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) =>
      this.answerHandshakeError(error, socket, request),
    );
    this.rewriteLegacyBasePath();
    return server;
  }

  private answerHandshakeError(error: Error, socket: Duplex, request: IncomingMessage): void {
    const requestId = requestIdFrom(request.headers['x-request-id']);
    const wrongMethod = request.method !== 'GET';
    writeErrorAndClose(socket, {
      status: wrongMethod ? 405 : 400,
      code: wrongMethod ? ErrorCode.MethodNotAllowed : ErrorCode.BadRequest,
      message: `The WebSocket handshake was refused: ${error.message}`,
      requestId,
      headers: wrongMethod ? { ...this.securityHeaders, allow: 'GET' } : { ...this.securityHeaders, 'sec-websocket-version': '13, 8' },
    });
  }

  /** Upgrades on `BASE_PATH-v2/...` are handled as `BASE_PATH/...` (spec "Versioning" 2). */
  private rewriteLegacyBasePath(): void {
    const httpServer = this.httpServer as Server | undefined;
    if (!this.basePath || this.legacyRewrite || !httpServer) return;
    this.legacyRewrite = true;
    const legacy = `${this.basePath}-v2`;
    httpServer.prependListener('upgrade', (request: IncomingMessage) => {
      const url = request.url ?? '/';
      if (url === legacy || url.startsWith(`${legacy}/`) || url.startsWith(`${legacy}?`)) {
        request.url = this.basePath + url.slice(legacy.length);
      }
    });
  }
}
