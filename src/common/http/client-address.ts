import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** The values Fastify's `trustProxy` option takes that this service uses (config `http.trustProxy`). */
export type TrustProxySetting = boolean | string | readonly string[];

/**
 * The client address of a request Fastify never handles (a WebSocket upgrade), resolved as Fastify resolves
 * `request.ip` for HTTP requests from the same `trustProxy` setting: the socket's peer, or, behind trusted proxies,
 * the nearest address in `X-Forwarded-For` that is not one of them. HTTP code uses `request.ip`.
 */
export function upgradeClientAddress(raw: IncomingMessage, trustProxy: TrustProxySetting): string {
  if (trustProxy === false) return raw.socket.remoteAddress ?? '';
  const trust =
    trustProxy === true
      ? () => true
      : proxyAddr.compile(typeof trustProxy === 'string' ? trustProxy.split(',').map((entry) => entry.trim()) : [...trustProxy]);
  return proxyAddr(raw, trust);
}
