import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard for every request this service makes to an address an operator chose (outbound webhooks, HTTP
 * tools). Two checks share one policy:
 * - `checkOutboundUrl` at validation time (a URL is stored or pushed): scheme, userinfo, length, and a literal IP
 *   host (in any spelling the WHATWG URL parser normalises: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`);
 * - `isBlockedAddress` at connect time, from the HTTP client's DNS `lookup`, so a hostname that resolves (or
 *   re-resolves, DNS rebinding) to a refused address is refused on the connection that would have used it.
 * Address ranges are matched by `net.BlockList`. An IPv6 address that carries an IPv4 one (`embeddedIpv4`: mapped,
 * translated, NAT64, 6to4, Teredo, ISATAP) is also refused when that IPv4 address is.
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
  // IPv4-compatible (deprecated, routed nowhere) addresses such as ::127.0.0.1, whatever IPv4 address they carry.
  ['::', 96, 'ipv6', 'IPv4-compatible'],
  // Local-use NAT64 (RFC 8215): the IPv4 address sits where the network's own prefix length puts it, so the whole range.
  ['64:ff9b:1::', 48, 'ipv6', 'local-use NAT64'],
  ['100::', 64, 'ipv6', 'discard-only'],
  ['fc00::', 7, 'ipv6', 'unique-local (including the fd00:ec2::254 metadata address)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local (deprecated)'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

export type OutboundRefusal = 'invalid_url' | 'blocked_address';

/** Parses `a.b.c.d/n` or `x::y/n`; null when it is not a CIDR. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const slash = text.indexOf('/');
  if (slash <= 0) return null;
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const version = isIP(address);
  if (version === 0 || !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (version === 4 ? 32 : 128)) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Splits a comma-separated CIDR list; returns the entries that are not CIDRs (empty = valid). */
export function invalidCidrs(list: string): string[] {
  return splitList(list).filter((entry) => parseCidr(entry) === null);
}

function splitList(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

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

  /**
   * True when connecting to this IP address (v4 or v6 text) is refused. A non-IP string is refused too. An IPv6 address
   * is refused when it is in a refused range, or when an IPv4 address it embeds is (unless it is itself allowed).
   */
  isBlockedAddress(address: string): boolean {
    return this.refusedAs(address) !== null;
  }

  /** Why `address` is refused: the address the refusal is about (itself or the IPv4 one it embeds), else null. */
  refusedAs(address: string): string | null {
    const version = isIP(address);
    if (version === 0) return address;
    if (version === 4) return this.blocked.check(address, 'ipv4') && !this.allowed.check(address, 'ipv4') ? address : null;
    if (this.allowed.check(address, 'ipv6')) return null;
    if (this.blocked.check(address, 'ipv6')) return address;
    return embeddedIpv4(address).find((ipv4) => this.refusedAs(ipv4) !== null) ?? null;
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
    const refused = host === null ? null : this.refusedAs(host);
    if (host !== null && refused !== null) {
      const what = refused === host ? describe(host) : `it embeds ${refused}: ${describe(refused)}`;
      return { refusal: 'blocked_address', reason: `must not target ${host}, a refused network (${what})` };
    }
    return { refusal: null, reason: null, parsed };
  }
}

/** The IP a URL hostname literally names (brackets stripped), else null (a name, checked when resolved). */
function hostAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0 ? bare : null;
}

/**
 * The IPv4 addresses an IPv6 address carries, in every standard form that routes to one: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d` (SIIT), NAT64 `64:ff9b::a.b.c.d` (RFC 6052), 6to4 `2002:AABB:CCDD::/48` (RFC 3056),
 * Teredo `2001:0:SSSS:SSSS:…:CCCC:CCCC` (RFC 4380: the server, and the client XOR 0xffffffff) and an ISATAP
 * interface id `…:0:5efe:a.b.c.d` / `…:200:5efe:a.b.c.d` (RFC 5214). IPv4-compatible `::a.b.c.d` and local-use NAT64
 * are refused as whole ranges (BLOCKED_RANGES).
 */
export function embeddedIpv4(ipv6: string): string[] {
  const bytes = ipaddr.IPv6.parse(ipv6).toByteArray();
  const v4 = (at: number, mask = 0) =>
    bytes
      .slice(at, at + 4)
      .map((byte) => byte ^ mask)
      .join('.');
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const word = (at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
  const found: string[] = [];
  if (zero(0, 10) && word(10) === 0xffff) found.push(v4(12)); // mapped
  if (zero(0, 8) && word(8) === 0xffff && word(10) === 0) found.push(v4(12)); // translated
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) found.push(v4(12)); // NAT64 well-known prefix
  if (word(0) === 0x2002) found.push(v4(2)); // 6to4
  if (word(0) === 0x2001 && word(2) === 0) found.push(v4(4), v4(12, 0xff)); // Teredo: server, client
  if ((word(8) & 0xfdff) === 0 && word(10) === 0x5efe) found.push(v4(12)); // ISATAP
  return found;
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
 * private, unique-local, CGNAT, metadata, unspecified or multicast, nor embed such an IPv4 address, unless
 * OUTBOUND_ALLOWED_NETWORKS allows it.
 * Hostnames are checked again when they are resolved, on every connection.
 */
export function checkOutboundUrl(url: string, policy: OutboundPolicy = active): string | null {
  return policy.evaluate(url).reason;
}

/** Connect-time check of a resolved address against the process-wide policy. */
export function isBlockedAddress(address: string, policy: OutboundPolicy = active): boolean {
  return policy.isBlockedAddress(address);
}
