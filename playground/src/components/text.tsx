import type { ComponentChildren } from 'preact';

/**
 * Untrusted values (agent text, card fields) only ever become text nodes: Preact sets them as textContent, so
 * `<script>` or `<img onerror>` in a catalog record shows as those characters. The page has no innerHTML at all
 * (eslint forbids it under playground/).
 */
export function display(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Links only to http(s) URLs, in a new tab without an opener: a `javascript:` URL in a record stays plain text. */
export function SafeLink({ href, children }: { href: string; children: ComponentChildren }) {
  let url: URL | undefined;
  try {
    url = new URL(href);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return <span>{href}</span>;
  return (
    <a href={url.href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Reply text whose `[n]` citation markers are buttons; everything else is text (newlines kept by CSS). */
export function ReplyText({ text, onCitation }: { text: string; onCitation?: (marker: number) => void }) {
  if (!onCitation) return <div class="text">{text}</div>;
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) {
    const marker = Number(match[1]);
    // The space before a marker goes: "whole account [1]." reads as "whole account" with a superscript 1.
    parts.push(text.slice(last, match.index).replace(/ $/, ''));
    parts.push(
      <button type="button" class="cite" data-testid="citation-marker" title={`Show source ${marker}`} onClick={() => onCitation(marker)}>
        {marker}
      </button>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <div class="text">{parts}</div>;
}
