import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage, Server } from 'node:http';
import { AppConfig } from '../../config/app-config.js';

/**
 * The `ws` adapter (STACK.md P15) for the messaging WebSocket session:
 * - gateway paths honour BASE_PATH (`@WebSocketGateway({ path })` is fixed at import time), and the legacy base
 *   path (`BASE_PATH` + `-v2`) upgrades too, like every HTTP route;
 * - frames are not parsed here: the gateway reads its own JSON frames (`{type, ...}`, DESIGN.md "WebSocket session"),
 *   so the adapter's `{event, data}` dispatch is switched off;
 * - frames over SESSION_MAX_FRAME_BYTES are not read: `ws` closes the session with 1009 (bounds memory per frame).
 */
export class SessionWsAdapter extends WsAdapter {
  private legacyRewrite = false;
  private readonly maxFrameBytes: number;

  constructor(
    app: INestApplicationContext,
    private readonly basePath: string,
  ) {
    super(app, { messageParser: () => undefined });
    this.maxFrameBytes = app.get(AppConfig).session.maxFrameBytes;
  }

  override create(port: number, options: Record<string, unknown> & { path?: string } = {}): ReturnType<WsAdapter['create']> {
    const server = super.create(port, { ...options, path: `${this.basePath}${options.path ?? ''}`, maxPayload: this.maxFrameBytes });
    this.rewriteLegacyBasePath();
    return server;
  }

  /** Upgrades on `BASE_PATH-v2/...` are handled as `BASE_PATH/...` (spec "Versioning" 2). */
  private rewriteLegacyBasePath(): void {
    const httpServer = this.httpServer as Server | undefined;
    if (!this.basePath || this.legacyRewrite || !httpServer) return;
    this.legacyRewrite = true;
    const legacy = `${this.basePath}-v2`;
    httpServer.prependListener('upgrade', (request: IncomingMessage) => {
      const url = request.url ?? '/';
      if (url === legacy || url.startsWith(`${legacy}/`) || url.startsWith(`${legacy}?`)) request.url = this.basePath + url.slice(legacy.length);
    });
  }
}
