import type { OutboundHttpClient } from '../../../common/outbound/outbound-http.client.js';

/** The `fetch` the MCP SDK's transport takes. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** An answer over the size the MCP client reads: refused whole rather than parsed cut. */
export class McpResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`the MCP server's answer is over ${limit} bytes`);
  }
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for the MCP SDK's Streamable HTTP transport built on the outbound client (docs/security.md, "Outbound
 * requests"): the SSRF policy with pinned DNS, no redirects (a 3xx is the transport's error), each exchange bounded by
 * the call's deadline and `maxResponseBytes` (an answer over it is an error, never parsed cut). The answer is read
 * whole: a stateless exchange ends with its response, so a POST's event stream is complete when the server closes it.
 * The optional GET stream for server-initiated messages is answered 405 without a request (the transport's
 * "not offered"): the service asks servers for nothing but tools, and an open stream would outlive the call.
 */
export function outboundFetch(
  client: OutboundHttpClient,
  bounds: { deadline: number; maxResponseBytes: number; signal: AbortSignal },
): FetchLike {
  return async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const signal = init.signal ? AbortSignal.any([init.signal, bounds.signal]) : bounds.signal;
    const res = await client.request({
      method,
      url: String(url),
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
      timeoutMs: Math.max(1, bounds.deadline - Date.now()),
      maxResponseBytes: bounds.maxResponseBytes,
      signal,
    });
    if (res.truncated) throw new McpResponseTooLargeError(bounds.maxResponseBytes);
    return new Response(NULL_BODY_STATUSES.has(res.status) ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  };
}
