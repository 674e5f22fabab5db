// CIDR notation, as configuration gives it (OUTBOUND_ALLOWED_NETWORKS): checked by the schema, used by the policies.
import { isIP } from 'node:net';

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
