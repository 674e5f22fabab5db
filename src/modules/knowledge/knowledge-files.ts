import { marked } from 'marked';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

/**
 * Turning uploaded files into knowledge documents: Markdown (rendered to HTML by `marked`, so code fences, setext
 * headings and inline markup are read the way Markdown means them), HTML (parsed by `parse5`, the WHATWG parser
 * browsers follow, so broken markup reads as a browser would show it) and plain text. HTML and Markdown are split
 * into one document per h1–h3 section, titled with its heading trail (`Guide › Install › Linux`); h4–h6 stay inside
 * the text as Markdown heading lines. Plain text is one document.
 */

/** Limits of one upload (docs/knowledge.md). */
export const UPLOAD_LIMITS = {
  files: 20,
  fileBytes: 2 * 1024 * 1024,
  totalBytes: 10 * 1024 * 1024,
  documents: 500,
  fileNameChars: 200,
  messageChars: 500,
} as const;

/** Bundle limits a document must meet (bundle.schema.ts `knowledge[]`). */
const MAX_TITLE = 300;
const MAX_TEXT = 200_000;
const SPLIT_LEVELS = 3;

export type FileKind = 'markdown' | 'html' | 'text';

export interface SplitDocument {
  id: string;
  title: string;
  text: string;
}

const KIND_BY_EXTENSION: Record<string, FileKind> = {
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  txt: 'text',
  text: 'text',
};
const KIND_BY_TYPE: Record<string, FileKind> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
};

/** The file's kind from its extension, else its declared media type; null when neither names a kind we read. */
export function fileKind(filename: string, mediaType: string): FileKind | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension && KIND_BY_EXTENSION[extension]) return KIND_BY_EXTENSION[extension];
  if (extension && extension !== 'bin') return null;
  return KIND_BY_TYPE[mediaType.split(';')[0]!.trim().toLowerCase()] ?? null;
}

/** UTF-8 text of the file (a BOM dropped), or the problem that stops it from being stored. */
export function decodeText(bytes: Buffer): { text: string } | { problem: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'is not valid UTF-8' };
  }
  if (text.includes('\u0000')) return { problem: 'contains NUL characters' };
  if (!text.trim()) return { problem: 'is empty' };
  return { text: text.replace(/^\uFEFF/, '') };
}

/** The file name as a document id prefix: lower case, letters, digits, `.`, `_`, `-` (others become `-`). */
export function fileSlug(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  return slug(base, /[^a-z0-9._-]+/g).slice(0, 100) || 'file';
}

/** The documents of one file: ids `<file slug>` for the text before the first heading, `<file slug>:<heading slug>` per section. */
export function documentsOf(filename: string, kind: FileKind, text: string): SplitDocument[] {
  const prefix = fileSlug(filename);
  const display = (filename.split(/[\\/]/).pop() ?? filename).replace(/\.[A-Za-z0-9]+$/, '') || prefix;
  const sections =
    kind === 'text'
      ? [{ trail: [], paragraphs: text.split(/\n\s*\n/).map((p) => p.trim()) }]
      : sectionsOfHtml(kind === 'markdown' ? marked.parse(text, { async: false, gfm: true }) : text);
  const ids = new Set<string>();
  const documents: SplitDocument[] = [];
  const pageTitle = kind === 'html' ? htmlTitle(text) : null;
  for (const section of sections) {
    const paragraphs = section.paragraphs.filter(Boolean);
    if (!paragraphs.length) continue;
    const title = truncate(section.trail.length ? section.trail.join(' › ') : (pageTitle ?? display), MAX_TITLE);
    const base = section.trail.length
      ? `${prefix}:${slug(section.trail[section.trail.length - 1]!, /[^a-z0-9]+/g).slice(0, 90) || 'section'}`
      : prefix;
    parts(paragraphs).forEach((body, i, all) => {
      const id = unique(all.length > 1 ? `${base}-part-${i + 1}` : base, ids);
      documents.push({ id, title: all.length > 1 ? truncate(`${title} (part ${i + 1})`, MAX_TITLE) : title, text: body });
    });
  }
  return documents;
}

/** Whether `id` is one of the documents a file with this slug makes (a new upload of the file replaces them). */
export function madeFromFile(id: string, prefix: string): boolean {
  return id === prefix || id.startsWith(`${prefix}:`) || id.startsWith(`${prefix}-part-`);
}

interface Section {
  trail: string[];
  paragraphs: string[];
}

type Node = DefaultTreeAdapterMap['childNode'];
const SKIPPED = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas']);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'br',
  'caption',
]);

function sectionsOfHtml(html: string): Section[] {
  const sections: Section[] = [{ trail: [], paragraphs: [] }];
  let trail: string[] = [];
  let buffer = '';
  const current = () => sections[sections.length - 1]!;
  const flush = () => {
    const paragraph = buffer.replace(/[ \t\r\f\v]*\n[ \t\r\f\v]*/g, '\n').trim();
    if (paragraph) current().paragraphs.push(paragraph);
    buffer = '';
  };
  const walk = (node: Node, pre: boolean): void => {
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterMap['textNode']).value;
      buffer += pre ? value : value.replace(/\s+/g, ' ');
      return;
    }
    if (!('tagName' in node)) return;
    const tag = node.tagName;
    if (SKIPPED.has(tag)) return;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      flush();
      const level = Number(heading[1]);
      const text = textOf(node).replace(/\s+/g, ' ').trim();
      if (!text) return;
      if (level <= SPLIT_LEVELS) {
        trail = [...trail.slice(0, level - 1), text];
        sections.push({ trail, paragraphs: [] });
      } else current().paragraphs.push(`${'#'.repeat(level)} ${text}`);
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) flush();
    if (tag === 'li') buffer += '- ';
    if (tag === 'td' || tag === 'th') buffer += ' ';
    for (const child of childrenOf(node)) walk(child, pre || tag === 'pre');
    if (block) flush();
  };
  const document = parse(html);
  for (const child of document.childNodes) walk(child, false);
  flush();
  return sections;
}

function htmlTitle(html: string): string | null {
  const find = (node: Node): string | null => {
    if ('tagName' in node && node.tagName === 'title') return textOf(node).replace(/\s+/g, ' ').trim() || null;
    for (const child of childrenOf(node)) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  for (const child of parse(html).childNodes) {
    const found = find(child);
    if (found) return found;
  }
  return null;
}

function childrenOf(node: Node): Node[] {
  if (node.nodeName === 'template') return [];
  return 'childNodes' in node ? (node.childNodes as Node[]) : [];
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if ('tagName' in node && SKIPPED.has(node.tagName)) return '';
  return childrenOf(node).map(textOf).join('');
}

/** Paragraphs joined into texts of at most MAX_TEXT characters (a paragraph longer than that is cut on its own). */
function parts(paragraphs: string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const paragraph of paragraphs) {
    for (let start = 0; start < paragraph.length;) {
      let end = Math.min(paragraph.length, start + MAX_TEXT);
      // never between the two halves of a surrogate pair (PostgreSQL refuses a lone one)
      if (end < paragraph.length && /[\uD800-\uDBFF]/.test(paragraph[end - 1]!)) end -= 1;
      const piece = paragraph.slice(start, end);
      start = end;
      if (current && current.length + 2 + piece.length > MAX_TEXT) {
        out.push(current);
        current = '';
      }
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  if (current) out.push(current);
  return out;
}

function slug(text: string, disallowed: RegExp): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(disallowed, '-')
    .replace(/^-+|-+$/g, '');
}

function unique(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${id}-${n}`;
  taken.add(candidate);
  return candidate;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
