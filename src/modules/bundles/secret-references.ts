import type { Bundle } from './bundle.types.js';
import { pointerToField } from './bundle-pointer.js';

/**
 * Agent secrets in header values (docs/security.md, "Agent secrets"): `{{secret:NAME}}` in an MCP server's or an
 * HTTP tool's header value is replaced by the agent's secret NAME when the call is made. The name is what
 * `PUT /management/v1/agents/{agentId}/secrets/{name}` stores: a letter, then letters, digits and underscores.
 */
export const SECRET_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
const SECRET_NAME = new RegExp(SECRET_NAME_PATTERN);

/** Anything that opens like a reference; what is inside must then be a valid name. */
const REFERENCE = /\{\{\s*secret\s*:([^}]*)\}\}/g;

/** A header value's references: the names, in order, or why the value is refused (a malformed reference). */
export function secretReferencesOf(value: string): { names: string[]; problem: string | null } {
  const names: string[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    const name = match[1]!;
    if (!SECRET_NAME.test(name) || match[0] !== `{{secret:${name}}}`) {
      return { names, problem: 'has a malformed secret reference: write {{secret:NAME}} (a letter, then letters, digits, _)' };
    }
    if (!names.includes(name)) names.push(name);
  }
  if (/\{\{\s*secret\s*:/.test(value.replace(REFERENCE, ''))) {
    return { names, problem: 'has an unclosed secret reference: write {{secret:NAME}}' };
  }
  return { names, problem: null };
}

/** The value with each reference replaced by `lookup(name)`; the caller has checked every name resolves. */
export function fillSecretReferences(value: string, lookup: (name: string) => string): string {
  return value.replace(REFERENCE, (_, name: string) => lookup(name));
}

/** Whether a value holds a reference (so a call needs the agent's secrets at all). */
export function hasSecretReference(value: string): boolean {
  return value.includes('{{') && secretReferencesOf(value).names.length > 0;
}

/** One header value of a bundle that names secrets: its wire path (`bundle.mcp_servers[0].headers.Authorization`). */
export interface SecretReferenceSite {
  field: string;
  names: string[];
}

/** Every header of the bundle (HTTP tools, MCP servers) that names secrets; malformed ones are the validator's to report. */
export function secretReferenceSites(bundle: Bundle, root = 'bundle'): SecretReferenceSite[] {
  const sites: SecretReferenceSite[] = [];
  const visit = (headers: Record<string, string> | undefined, at: string) => {
    for (const [name, value] of Object.entries(headers ?? {})) {
      const { names } = secretReferencesOf(value);
      if (names.length > 0) sites.push({ field: `${at}.headers${pointerToField(`/${name}`, '')}`, names });
    }
  };
  bundle.tools?.forEach((tool, i) => {
    if (tool.type === 'http') visit(tool.headers, `${root}.tools[${i}]`);
  });
  bundle.mcp_servers?.forEach((server, i) => visit(server.headers, `${root}.mcp_servers[${i}]`));
  return sites;
}
