/**
 * The evaluation sets: the small help-centre knowledge bases written for this purpose (bench/quality/<base>/:
 * `pages/*.md`, one help page each, and `questions.txt`), the final set kept aside (bench/quality/final-hotel/, run
 * once), and the PostgreSQL manual (corpus.ts with questions.txt), all in one model of questions grouped in threads.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnowledgeDocument } from '../../src/modules/bundles/bundle.types.js';
import { loadCorpus } from './corpus.js';

export type Kind = 'direct' | 'everyday' | 'typo' | 'similar' | 'followup' | 'paraphrase' | 'unanswerable';

const KINDS: Record<string, Kind> = {
  d: 'direct',
  e: 'everyday',
  t: 'typo',
  s: 'similar',
  f: 'followup',
  p: 'paraphrase',
  u: 'unanswerable',
};

/** Kinds the "hard" column reports: follow-ups in a thread, similar-page questions and the manual's paraphrases. */
export const HARD: ReadonlySet<Kind> = new Set(['followup', 'similar', 'paraphrase']);

export interface Question {
  text: string;
  kind: Kind;
  /** Pages that answer it (any counts as right); null when the knowledge base does not answer it. */
  expected: string[] | null;
}

/** A conversation: its first question and the follow-ups that depend on it, asked in order in one thread. */
export interface Thread {
  questions: Question[];
  /** The page the thread belongs to when splitting (its first question's first page); null when unanswerable. */
  page: string | null;
}

export interface Base {
  name: string;
  description: string;
  documents: KnowledgeDocument[];
  threads: Thread[];
}

/** Small bases in the order they are reported; the final set is separate (`--final`). */
export const SMALL_BASES = ['bikes', 'dental', 'saas', 'library'] as const;
export const FINAL_BASE = 'final-hotel';

/** A Markdown help page: `# Title` on its first line, the rest is the text (its `##` headings stay in it). */
function pageDocument(id: string, markdown: string): KnowledgeDocument {
  const lines = markdown.split('\n');
  const title = /^#\s+(.*)$/.exec(lines[0] ?? '')?.[1]?.trim();
  if (!title) throw new Error(`${id}.md: the first line must be "# Title"`);
  return { id, title, text: lines.slice(1).join('\n').trim() };
}

/** Parses questions.txt: expected <TAB> kind <TAB> question; a follow-up (f) continues the line above's thread. */
export function parseQuestions(text: string, file: string): Thread[] {
  const threads: Thread[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [expected, code, question] = line.split('\t');
    const kind = KINDS[code ?? ''];
    if (!expected || !kind || !question) throw new Error(`${file}: malformed line: ${line}`);
    const q: Question = { text: question, kind, expected: expected === '-' ? null : expected.split('|') };
    if (kind === 'followup') {
      const thread = threads[threads.length - 1];
      if (!thread) throw new Error(`${file}: a follow-up with no question before it: ${line}`);
      thread.questions.push(q);
    } else {
      threads.push({ questions: [q], page: q.expected?.[0] ?? null });
    }
  }
  return threads;
}

export function loadSmallBase(root: string, name: string): Base {
  const dir = join(root, 'bench', 'quality', name);
  const pagesDir = join(dir, 'pages');
  const documents = readdirSync(pagesDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => pageDocument(f.slice(0, -3), readFileSync(join(pagesDir, f), 'utf8')));
  const file = join(dir, 'questions.txt');
  const text = readFileSync(file, 'utf8');
  const description = /^#\s*(.*)$/m.exec(text)?.[1]?.replace(/\. Written.*$/, '') ?? name;
  const threads = parseQuestions(text, file);
  check(name, documents, threads);
  return { name, description, documents, threads };
}

/** The PostgreSQL manual (part III, one document per section) and its questions (no threads). */
export function loadManual(root: string, log: (m: string) => void): Base & { packageVersion: string } {
  const corpus = loadCorpus(log);
  const file = join(root, 'bench', 'quality', 'questions.txt');
  const threads = parseQuestions(readFileSync(file, 'utf8'), file);
  check('manual', corpus.documents, threads);
  return {
    name: 'manual',
    description: `PostgreSQL 15 manual part III (${corpus.packageVersion})`,
    documents: corpus.documents,
    threads,
    packageVersion: corpus.packageVersion,
  };
}

export function hasBase(root: string, name: string): boolean {
  return existsSync(join(root, 'bench', 'quality', name, 'questions.txt'));
}

function check(name: string, documents: KnowledgeDocument[], threads: Thread[]): void {
  const known = new Set(documents.map((d) => d.id));
  const missing = threads.flatMap((t) => t.questions.flatMap((q) => (q.expected ?? []).filter((id) => !known.has(id))));
  if (missing.length) throw new Error(`${name}: questions name pages that do not exist: ${[...new Set(missing)].join(', ')}`);
}
