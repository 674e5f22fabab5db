import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { trustFunction, type TrustedProxies } from '../../config/trusted-proxies.js';

/**
 * The client address of a request Fastify never handles (a WebSocket upgrade), resolved as Fastify resolves
 * `request.ip` for HTTP requests from the same TRUST_PROXY (src/common/http/trusted-proxies.ts): the socket's peer, or,
 * behind trusted proxies, the right-most address in `X-Forwarded-For` that is not one of them. HTTP code uses `request.ip`.
 */
export function upgradeClientAddress(raw: IncomingMessage, trusted: TrustedProxies): string {
  const trust = trustFunction(trusted);
  if (trust === false) return raw.socket.remoteAddress ?? '';
  return proxyAddr(raw, trust);
}
