import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type QuestionKind = 'direct' | 'paraphrase' | 'unanswerable';

export interface Question {
  n: number;
  text: string;
  kind: QuestionKind;
  /** Expected document (section) id; null for an unanswerable question. */
  expected: string | null;
  fold: 'A' | 'B';
}

const KINDS: Record<string, QuestionKind> = { d: 'direct', p: 'paraphrase', u: 'unanswerable' };

/** bench/quality/questions.txt (read from the source tree: the compiled bench has no copy of it). */
export function loadQuestions(root: string): Question[] {
  const file = fileURLToPath(new URL('bench/quality/questions.txt', `file://${root.endsWith('/') ? root : `${root}/`}`));
  const out: Question[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [expected, kind, text] = line.split('\t');
    if (!expected || !kind || !text || !KINDS[kind]) throw new Error(`questions.txt: malformed line: ${line}`);
    out.push({
      n: out.length,
      text,
      kind: KINDS[kind]!,
      expected: expected === '-' ? null : expected,
      fold: out.length % 2 === 0 ? 'A' : 'B',
    });
  }
  return out;
}
