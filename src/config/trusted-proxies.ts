import proxyAddr from '@fastify/proxy-addr';

/**
 * Which peers may speak for the client in `X-Forwarded-For` (docs/operations.md, "Behind a load balancer").
 * `off`: nobody, the client is the TCP peer. `peer` (the deprecated `TRUST_PROXY=true`): the TCP peer, whoever it is.
 * A list: those addresses, CIDRs and named ranges (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustedProxies = { kind: 'off' } | { kind: 'peer' } | { kind: 'list'; entries: string[] };

/** Decides, hop by hop from the socket leftwards, whether an address is a proxy whose forwarded entry is believed. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** Parses `TRUST_PROXY`: `true`/`on` (deprecated), `false`/`off`, or comma-separated addresses, CIDRs and range names. */
export function parseTrustedProxies(raw: boolean | string): TrustedProxies {
  if (raw === false) return { kind: 'off' };
  if (raw === true) return { kind: 'peer' };
  return { kind: 'list', entries: splitList(raw) };
}

/** True when `raw` is a non-empty list `proxy-addr` compiles: addresses, CIDRs and named ranges only. */
export function isTrustedProxyList(raw: string): boolean {
  const entries = splitList(raw);
  return (
    entries.length > 0 &&
    entries.every((entry) => {
      try {
        proxyAddr.compile(entry);
        return true;
      } catch {
        return false;
      }
    })
  );
}

/**
 * Fastify's `trustProxy` option. With a list, `request.ip` is the right-most `X-Forwarded-For` entry that is not a
 * trusted proxy (proxy-addr walks from the socket address leftwards and stops at the first untrusted one), so what
 * a client writes into the header itself is never reached while the proxies in front append what they saw.
 */
export function trustFunction(trusted: TrustedProxies): TrustFunction | false {
  switch (trusted.kind) {
    case 'off':
      return false;
    case 'peer':
      // One hop: the socket's peer is the proxy, the right-most forwarded entry is the client.
      return (_address, hop) => hop === 0;
    case 'list':
      return proxyAddr.compile(trusted.entries);
  }
}

function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
