import { BlockList, isIP } from 'node:net';
import { parseCidr } from '../../config/cidr.js';

/**
 * The SSRF guard for every request this service makes to an address an operator chose (outbound webhooks, HTTP
 * tools). Two checks share one policy:
 * - `checkOutboundUrl` at validation time (a URL is stored or pushed): scheme, userinfo, length, and a literal IP
 *   host (in any spelling the WHATWG URL parser normalises: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`);
 * - `isBlockedAddress` at connect time, from the HTTP client's DNS `lookup`, so a hostname that resolves (or
 *   re-resolves, DNS rebinding) to a refused address is refused on the connection that would have used it.
 * Address ranges are matched by `net.BlockList`, which also matches IPv4-mapped IPv6 (`::ffff:a.b.c.d`) against the
 * IPv4 rules.
 */

export const OUTBOUND_URL_MAX_LENGTH = 2048;

/** Refused ranges: [address, prefix, family, what it is]. */
const BLOCKED_RANGES: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved or broadcast'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  // IPv4-compatible (deprecated) addresses such as ::127.0.0.1; IPv4-mapped ones are matched by the IPv4 rules.
  ['::', 96, 'ipv6', 'IPv4-compatible'],
  ['64:ff9b:1::', 48, 'ipv6', 'local-use NAT64'],
  ['100::', 64, 'ipv6', 'discard-only'],
  ['fc00::', 7, 'ipv6', 'unique-local (including the fd00:ec2::254 metadata address)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local (deprecated)'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

export type OutboundRefusal = 'invalid_url' | 'blocked_address';

export class OutboundPolicy {
  private readonly blocked = new BlockList();
  private readonly allowed = new BlockList();

  /** `allowedNetworks`: CIDRs exempt from the refused ranges (e.g. `127.0.0.0/8` for tests, a VPC range). */
  constructor(readonly allowedNetworks: readonly string[] = []) {
    for (const [address, prefix, family] of BLOCKED_RANGES) this.blocked.addSubnet(address, prefix, family);
    for (const cidr of allowedNetworks) {
      const parsed = parseCidr(cidr);
      if (!parsed) throw new Error(`Not a CIDR: ${cidr}`);
      this.allowed.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
  }

  /** True when connecting to this IP address (v4 or v6 text) is refused. A non-IP string is refused too. */
  isBlockedAddress(address: string): boolean {
    const version = isIP(address);
    if (version === 0) return true;
    const family = version === 4 ? 'ipv4' : 'ipv6';
    return this.blocked.check(address, family) && !this.allowed.check(address, family);
  }

  /** The validation-time check, with the kind of refusal (see `checkOutboundUrl`). */
  evaluate(url: string): { refusal: OutboundRefusal; reason: string; parsed?: undefined } | { refusal: null; reason: null; parsed: URL } {
    if (typeof url !== 'string' || url.length === 0) return { refusal: 'invalid_url', reason: 'must be an http(s) URL' };
    if (url.length > OUTBOUND_URL_MAX_LENGTH) {
      return { refusal: 'invalid_url', reason: `must be at most ${OUTBOUND_URL_MAX_LENGTH} characters` };
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { refusal: 'invalid_url', reason: 'must be an absolute http(s) URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { refusal: 'invalid_url', reason: 'must use http or https' };
    if (parsed.username !== '' || parsed.password !== '') {
      return { refusal: 'invalid_url', reason: 'must not carry credentials (user:password@); send them as headers' };
    }
    if (parsed.hostname === '') return { refusal: 'invalid_url', reason: 'must name a host' };
    const host = hostAddress(parsed.hostname);
    if (host !== null && this.isBlockedAddress(host)) {
      return { refusal: 'blocked_address', reason: `must not target ${host}, a refused network (${describe(host)})` };
    }
    return { refusal: null, reason: null, parsed };
  }
}

/** The IP a URL hostname literally names (brackets stripped), else null (a name, checked when resolved). */
function hostAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0 ? bare : null;
}

function describe(address: string): string {
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  for (const [range, prefix, rangeFamily, what] of BLOCKED_RANGES) {
    const single = new BlockList();
    single.addSubnet(range, prefix, rangeFamily);
    if (single.check(address, family)) return what;
  }
  return 'refused';
}

let active = new OutboundPolicy();

/** Installs the process-wide policy (OutboundModule does, from OUTBOUND_ALLOWED_NETWORKS). */
export function configureOutboundPolicy(allowedNetworks: readonly string[]): OutboundPolicy {
  active = new OutboundPolicy(allowedNetworks);
  return active;
}

/** The policy `checkOutboundUrl` and the outbound client use. */
export function outboundPolicy(): OutboundPolicy {
  return active;
}

/**
 * Validation-time check of a URL this service will call: a human reason it is refused, or null. http/https only,
 * no userinfo, at most 2048 characters, and a literal IP host (however spelled) must not be loopback, link-local,
 * private, unique-local, CGNAT, metadata, unspecified or multicast unless OUTBOUND_ALLOWED_NETWORKS allows it.
 * Hostnames are checked again when they are resolved, on every connection.
 */
export function checkOutboundUrl(url: string, policy: OutboundPolicy = active): string | null {
  return policy.evaluate(url).reason;
}

/** Connect-time check of a resolved address against the process-wide policy. */
export function isBlockedAddress(address: string, policy: OutboundPolicy = active): boolean {
  return policy.isBlockedAddress(address);
}
