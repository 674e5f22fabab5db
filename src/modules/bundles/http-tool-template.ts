import { checkOutboundUrl } from '../../common/outbound/outbound-policy.js';

/** `{name}` in an HTTP tool's URL, reply and card templates: a parameter or mapped field name. */
export const TEMPLATE_PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_.-]{0,63})\}/g;

/** Headers the service sets itself on every tool call; a tool may not set them. */
export const RESERVED_TOOL_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** The placeholder names of a template, in order of first use. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(TEMPLATE_PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Why an HTTP tool's URL template is refused, or null: placeholders only in the path and query (the scheme, host
 * and port are fixed at push time), no stray braces, and the URL with placeholders filled passes the outbound
 * policy (http/https, no credentials, no literal refused address).
 */
export function urlTemplateProblem(template: string): string | null {
  const bare = template.replace(TEMPLATE_PLACEHOLDER, 'x');
  if (/[{}]/.test(bare)) return 'has a brace that is not a {parameter} placeholder (a letter, then letters, digits, _ . -)';
  const origin = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(template)?.[0] ?? '';
  if (origin.includes('{')) return 'may use {parameter} placeholders only in the path and query, not in the scheme, host or port';
  if (template.includes('#')) return 'must not have a fragment (#)';
  return checkOutboundUrl(bare);
}
