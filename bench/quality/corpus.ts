/**
 * The evaluation corpus: part III ("Server Administration") of the PostgreSQL 15 manual as Debian ships it in
 * `postgresql-doc-15`, split into one knowledge document per section (a page's introduction, then each of its
 * second-level sections) the way an operator would load a manual: title, the section's own headings as Markdown
 * heading lines, and its body text. Derived at run time from the package (installed with apt-get when missing),
 * so nothing of the manual is copied into this repository; the package version is reported with the figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnowledgeDocument } from '../../src/modules/bundles/bundle.types.js';

export const PACKAGE = 'postgresql-doc-15';
const HTML_DIR = `/usr/share/doc/${PACKAGE}/html`;
const PUBLIC_URL = 'https://www.postgresql.org/docs/15/';
// Navigation links of the part's table of contents that are not part of it.
const OUTSIDE_PART = new Set(['index.html', 'reference.html', 'tutorial.html', 'sql.html', 'parallel-safety.html']);

export interface Corpus {
  packageVersion: string;
  documents: KnowledgeDocument[];
}

export function ensurePackage(log: (m: string) => void): void {
  if (existsSync(join(HTML_DIR, 'admin.html'))) return;
  log(`installing ${PACKAGE} (apt-get install -y ${PACKAGE})`);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', PACKAGE], { stdio: 'inherit' });
}

export function loadCorpus(log: (m: string) => void): Corpus {
  ensurePackage(log);
  const packageVersion = execFileSync('dpkg-query', ['-W', '-f=${Version}', PACKAGE]).toString().trim();
  const toc = readFileSync(join(HTML_DIR, 'admin.html'), 'utf8');
  const pages = [...new Set([...toc.matchAll(/href="([a-z0-9-]+\.html)/g)].map((m) => m[1]!))].filter((p) => !OUTSIDE_PART.has(p));
  const documents: KnowledgeDocument[] = [];
  for (const page of pages) documents.push(...splitPage(page, readFileSync(join(HTML_DIR, page), 'utf8')));
  return { packageVersion, documents };
}

/** A page's introduction (before its first second-level section) and each second-level section, as documents. */
function splitPage(page: string, html: string): KnowledgeDocument[] {
  const start = html.indexOf('</div>', html.indexOf('<div class="navheader"')) + '</div>'.length;
  const end = html.indexOf('<div class="navfooter"');
  const body = html.slice(start, end < 0 ? undefined : end);
  const pageTitle = clean(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? page);
  const cuts = [...body.matchAll(/<div class="sect2" id="([^"]+)"/g)].map((m) => ({ at: m.index, id: m[1]! }));
  const pieces = [{ at: 0, id: page.replace(/\.html$/, '').toUpperCase() }, ...cuts];
  const out: KnowledgeDocument[] = [];
  pieces.forEach((piece, i) => {
    const html = body.slice(piece.at, pieces[i + 1]?.at ?? body.length).replace(/<div class="toc">[\s\S]*?<\/dl><\/div>/g, '');
    const headings = [...html.matchAll(/<h([1-4])[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => clean(m[2]!));
    const title = i === 0 ? pageTitle : (headings[0] ?? pageTitle);
    const text = toText(html.replace(/<h([1-4])[^>]*>[\s\S]*?<\/h\1>/, i === 0 ? '' : '')).trim();
    // Chapter and part pages are tables of contents only: nothing an operator would answer from.
    if (text.split(/\s+/).length < 40) return;
    out.push({ id: piece.id.toLowerCase(), title, url: `${PUBLIC_URL}${page}${i === 0 ? '' : `#${piece.id}`}`, text });
  });
  return out;
}

/** Block HTML to text: headings and variable-list terms become Markdown heading lines, blocks become paragraphs. */
function toText(html: string): string {
  const marked = html
    .replace(/<h[1-4][^>]*>([\s\S]*?)<\/h[1-4]>/g, (_, h: string) => `\n\n## ${clean(h)}\n\n`)
    .replace(/<dt[^>]*>([\s\S]*?)<\/dt>/g, (_, t: string) => `\n\n### ${clean(t)}\n\n`)
    .replace(/<pre[^>]*>([\s\S]*?)<\/pre>/g, (_, p: string) => `\n\n${decode(p.replace(/<[^>]+>/g, ''))}\n\n`)
    .replace(/<\/?(p|li|dd|tr|table|div|blockquote|ul|ol|dl)[^>]*>/g, '\n\n');
  return marked
    .split(/\n\s*\n/)
    .map((block) => (block.startsWith('#') ? block.trim() : clean(block)))
    .filter(Boolean)
    .join('\n\n');
}

function clean(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}
