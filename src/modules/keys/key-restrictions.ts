import ipaddr from 'ipaddr.js';
import { ValidationError, type ErrorDetail } from '../../common/errors/app-error.js';

/** Origins as browsers send them: `scheme://host[:port]`, lowercase host, no path, default port omitted. */
export function normalizeOrigins(origins: string[] | undefined, field = 'allowed_origins'): string[] {
  const details: ErrorDetail[] = [];
  const result = (origins ?? []).map((origin, i) => {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const valid =
      url &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.origin !== 'null' &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      !/[?#]/.test(origin);
    if (!valid) {
      details.push({ field: `${field}[${i}]`, message: `${field}[${i}] must be a web origin such as https://shop.example.com (no path)` });
    }
    return url?.origin ?? origin;
  });
  if (details.length > 0) throw new ValidationError(details);
  return [...new Set(result)];
}

/** CIDR ranges, v4 or v6; a bare address becomes a single-address range (/32 or /128). */
export function normalizeIpRanges(ranges: string[] | undefined, field = 'allowed_ip_ranges'): string[] {
  const details: ErrorDetail[] = [];
  const result = (ranges ?? []).map((range, i) => {
    const value = range.trim();
    try {
      if (value.includes('/')) {
        if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(value) && !ipaddr.IPv6.isValidCIDR(value)) throw new Error('invalid');
        const [address, prefix] = ipaddr.parseCIDR(value);
        return `${address.toString()}/${prefix}`;
      }
      if (!ipaddr.IPv4.isValidFourPartDecimal(value) && !ipaddr.IPv6.isValid(value)) throw new Error('invalid');
      const address = ipaddr.parse(value);
      return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
    } catch {
      details.push({ field: `${field}[${i}]`, message: `${field}[${i}] must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32` });
      return value;
    }
  });
  if (details.length > 0) throw new ValidationError(details);
  return [...new Set(result)];
}
