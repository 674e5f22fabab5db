import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage, Server } from 'node:http';

/**
 * The `ws` adapter (STACK.md P15) for the messaging WebSocket session:
 * - gateway paths honour BASE_PATH (`@WebSocketGateway({ path })` is fixed at import time), and the legacy base
 *   path (`BASE_PATH` + `-v2`) upgrades too, like every HTTP route;
 * - frames are not parsed here: the gateway reads its own JSON frames (`{type, ...}`, DESIGN.md "WebSocket session"),
 *   so the adapter's `{event, data}` dispatch is switched off.
 */
export class SessionWsAdapter extends WsAdapter {
  private legacyRewrite = false;

  constructor(
    app: INestApplicationContext,
    private readonly basePath: string,
  ) {
    super(app, { messageParser: () => undefined });
  }

  override create(port: number, options: Record<string, unknown> & { path?: string } = {}): ReturnType<WsAdapter['create']> {
    const server = super.create(port, { ...options, path: `${this.basePath}${options.path ?? ''}` });
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
