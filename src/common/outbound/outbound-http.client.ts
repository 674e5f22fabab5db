import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { OutboundPolicy, outboundPolicy } from './outbound-policy.js';

export type OutboundFailureReason = 'blocked_address' | 'invalid_url' | 'dns_failure' | 'timeout' | 'connection_failed';

/** A request that produced no HTTP response (any response, 3xx/4xx/5xx included, is a result, not this). */
export class OutboundRequestError extends Error {
  constructor(
    readonly reason: OutboundFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Total budget: DNS, connect, TLS, sending, and reading the response up to `maxResponseBytes`. */
  timeoutMs: number;
  /** Bytes of the response body kept; the rest is not read (`truncated: true`) and the connection is dropped. */
  maxResponseBytes: number;
  /** Cancels the exchange (the caller's deadline or turn ended): a `timeout` failure, the connection dropped. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  latencyMs: number;
}

/** Raised inside the pinned lookup; mapped to `blocked_address`. */
class BlockedAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a refused network`);
  }
}

const USER_AGENT = 'agent-service-outbound/1';

/**
 * The one way this service calls addresses operators chose (webhook receivers, HTTP tools). Built on node:http and
 * node:https with a pinned DNS lookup: the addresses a hostname resolves to are checked against the outbound policy
 * and the connection uses exactly those, so DNS rebinding cannot slip a private address in after a check. Literal
 * IP hosts are checked before connecting. Redirects are never followed (a 3xx is returned as a status); one timer
 * bounds the whole exchange; at most `maxResponseBytes` of the body are read.
 */
@Injectable()
export class OutboundHttpClient implements OnApplicationShutdown {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: LookupFunction;

  constructor(private readonly policy: OutboundPolicy = outboundPolicy()) {
    this.lookup = (hostname, options, callback) => this.pinnedLookup(hostname, options, callback);
    // Pooled per host and port: a reused socket was checked when it connected.
    this.httpAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 30_000 });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 30_000 });
  }

  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  request(req: OutboundRequest): Promise<OutboundResponse> {
    const evaluated = this.policy.evaluate(req.url);
    if (evaluated.refusal !== null) return Promise.reject(new OutboundRequestError(evaluated.refusal, `URL ${evaluated.reason}`));
    const url = evaluated.parsed;
    const started = performance.now();
    const headers: Record<string, string | number> = { 'user-agent': USER_AGENT, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);

    if (req.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      let response: IncomingMessage | undefined;
      const onAbort = () => finish(cancelled());
      const finish = (error: OutboundRequestError | null, result?: OutboundResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        if (error) {
          response?.destroy();
          outgoing?.destroy();
          reject(error);
        } else resolve(result!);
      };
      const timer = setTimeout(
        () => finish(new OutboundRequestError('timeout', `No complete response within ${req.timeoutMs} ms`)),
        req.timeoutMs,
      );
      req.signal?.addEventListener('abort', onAbort, { once: true });

      let outgoing: http.ClientRequest | undefined;
      try {
        const isHttps = url.protocol === 'https:';
        outgoing = (isHttps ? https : http).request(url, {
          method: req.method.toUpperCase(),
          headers,
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          lookup: this.lookup,
        });
      } catch (error) {
        finish(new OutboundRequestError('invalid_url', `Request not sendable: ${(error as Error).message}`));
        return;
      }

      outgoing.on('error', (error) => finish(toOutboundError(error)));
      outgoing.on('response', (res) => {
        response = res;
        const chunks: Buffer[] = [];
        let kept = 0;
        let truncated = false;
        const done = () =>
          finish(null, {
            status: res.statusCode ?? 0,
            headers: flattenHeaders(res),
            body: Buffer.concat(chunks, kept),
            truncated,
            latencyMs: Math.round(performance.now() - started),
          });
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = req.maxResponseBytes - kept;
          if (chunk.length > room) {
            if (room > 0) chunks.push(chunk.subarray(0, room));
            kept += Math.max(room, 0);
            truncated = true;
            done();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          kept += chunk.length;
        });
        res.on('end', done);
        res.on('error', (error) => finish(toOutboundError(error)));
        res.on('aborted', () => finish(new OutboundRequestError('connection_failed', 'The response was cut off')));
      });
      outgoing.end(req.body);
    });
  }

  private pinnedLookup(
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => this.policy.isBlockedAddress(a.address));
      if (refused) return callback(new BlockedAddressError(hostname, refused.address) as NodeJS.ErrnoException, '', 0);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  }
}

const cancelled = () => new OutboundRequestError('timeout', 'The call was cancelled before a complete response');

function toOutboundError(error: Error & { code?: string }): OutboundRequestError {
  if (error instanceof OutboundRequestError) return error;
  if (error instanceof BlockedAddressError) return new OutboundRequestError('blocked_address', error.message);
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EAI_FAIL' || error.code === 'ENODATA') {
    return new OutboundRequestError('dns_failure', `DNS lookup failed (${error.code})`);
  }
  return new OutboundRequestError('connection_failed', error.code ? `${error.code}: ${error.message}` : error.message);
}

function flattenHeaders(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
