import { analyze, everydayForms, lemmaOf, lowerWords, stemWord, type QueryWord } from './analyzer.js';
import { relationsOf, synonymsOf, wordnet } from './wordnet.js';

/**
 * Lexical retrieval for the grounded engine, built once per revision:
 *  - BM25F over each document's fields (title, headings — Markdown heading lines of its text —, body), each
 *    field length-normalised on its own and boosted before saturation;
 *  - BM25 over passages, combined with the evidence of the passage's whole document;
 *  - a bonus for query terms found close together in a passage;
 *  - query expansion, weighted below the question's own words and only with terms the knowledge base uses:
 *    WordNet derivations ("whiter" → whiten), synonyms and, for nouns, the broader term ("toddler" → child),
 *    the last two weighted by how specific the word is (its sense count: "get" has 36 senses, "toddler" one); the
 *    base of an `e`-prefixed compound ("e-bikes" → bike, electric); terms that co-occur with the word in this
 *    knowledge base's passages.
 * Scores are precomputed per (term, document) and (term, passage), so a turn only adds up posting lists.
 */

export interface RetrievalPassage {
  documentId: string;
  title: string;
  text: string;
}

export interface RetrievalDocument {
  id: string;
  title: string;
  text: string;
}

const K1 = 1.2;
const FIELDS = [
  { name: 'title', boost: 3, b: 0.3 },
  { name: 'headings', boost: 3, b: 0.5 },
  { name: 'body', boost: 1, b: 0.75 },
] as const;
const PASSAGE_B = 0.75;
/** Weight of the document's BM25F score added to each of its passages' own scores. */
const DOCUMENT_WEIGHT = 1.2;
const SYNONYM_WEIGHT = 0.3;
const DERIVATION_WEIGHT = 0.6;
/** Weight of the page words an everyday word stands for (analyzer.ts EVERYDAY). */
const EVERYDAY_WEIGHT = 0.6;
const BROADER_WEIGHT = 0.25;
/** Weight of the base of an `e`-prefixed compound and of the "electric"/"electronic" it stands for. */
const COMPOUND_WEIGHT = 0.8;
const COOCCURRENCE_WEIGHT = 0.2;
/** Share of a question word each kind of expansion covers when the passage has the expansion but not the word. */
const COVERS: Partial<Record<QueryTerm['kind'], number>> = {
  derivation: 0.9,
  compound: 0.9,
  everyday: 0.8,
  synonym: 0.6,
  broader: 0.5,
  cooccurrence: 0.3,
};
/** Expansions in more passages than this share (and than the minimum) are not scored (see `search`). */
const COMMON_EXPANSION_SHARE = 0.05;
const COMMON_EXPANSION_MIN = 200;
/** Weight of the words of the thread's previous questions, relative to the question's own. */
const CONTEXT_WEIGHT = 0.5;
/** Co-occurring terms added per query term, and passages sampled to find them. */
const COOCCURRENCE_TERMS = 2;
const COOCCURRENCE_SAMPLE = 16;
const PROXIMITY_WINDOW = 5;
const PROXIMITY_WEIGHT = 0.25;
const RERANK = 40;
/** Factor on the score of a follow-up's passages on the page that answered the thread's previous question. */
const THREAD_PAGE_BONUS = 1.5;
/** Share of a passage's score kept when it covers none of the question (see `search`). */
const COVERAGE_FLOOR = 0.25;

interface Postings {
  ids: Int32Array;
  weights: Float32Array;
}

export interface QueryTerm {
  term: string;
  /** The question word this term stands for (itself for an original word). */
  source: string;
  weight: number;
  kind: 'question' | 'part' | 'context' | 'synonym' | 'derivation' | 'broader' | 'compound' | 'everyday' | 'cooccurrence';
}

export interface RankedPassage {
  index: number;
  score: number;
  /** Share of the question's weighted content (by IDF) the passage and its document's headings cover. */
  coverage: number;
  /** Question words (original, not context) neither the passage nor an expansion of them covers. */
  uncovered: string[];
}

export interface SearchResult {
  terms: QueryTerm[];
  passages: RankedPassage[];
}

export class KnowledgeRetriever {
  private readonly vocab = new Map<string, number>();
  private readonly termList: string[] = [];
  private readonly documentCount: number;
  private readonly docPostings: Postings[] = [];
  private readonly passagePostings: Postings[] = [];
  private readonly passageIdf: number[] = [];
  private readonly passageTerms: Int32Array[] = [];
  private readonly passageDoc: Int32Array;
  /** Terms of each document's title and headings (a passage covers what its section is titled). */
  private readonly docHeadTerms: Set<number>[] = [];
  private readonly maxIdf: number;
  /** Co-occurring terms found so far, per term (a revision's index is immutable). */
  private readonly associated = new Map<number, string[]>();
  private stamp = new Int32Array(0);
  private generation = 0;

  constructor(documents: RetrievalDocument[], passages: RetrievalPassage[]) {
    const docIndex = new Map(documents.map((d, i) => [d.id, i]));
    this.documentCount = documents.length;
    // Documents: per field term frequencies, then BM25F pseudo-frequencies.
    const fieldTf: Array<Array<Map<number, number>>> = [];
    const fieldLen = FIELDS.map(() => new Float64Array(documents.length));
    documents.forEach((d, di) => {
      const { headings, body } = splitHeadings(d.text);
      const perField = [analyze(d.title), analyze(headings), analyze(body)].map((terms, f) => {
        fieldLen[f]![di] = wordCount(terms);
        return counts(terms.map((t) => this.termId(t)));
      });
      fieldTf.push(perField);
      this.docHeadTerms.push(new Set([...perField[0]!.keys(), ...perField[1]!.keys()]));
    });
    const avgLen = fieldLen.map((lens) => Math.max(1, lens.reduce((a, b) => a + b, 0) / Math.max(1, lens.length)));
    const docLists: PostingList[] = [];
    fieldTf.forEach((perField, di) => {
      const pseudo = new Map<number, number>();
      perField.forEach((tf, f) => {
        const { boost, b } = FIELDS[f]!;
        const norm = 1 - b + (b * fieldLen[f]![di]!) / avgLen[f]!;
        for (const [t, n] of tf) pseudo.set(t, (pseudo.get(t) ?? 0) + (boost * n) / norm);
      });
      for (const [t, tf] of pseudo) add(docLists, t, di, tf / (K1 + tf));
    });
    // Passages: BM25 over their text, term sequences kept for proximity and co-occurrence.
    this.passageDoc = new Int32Array(passages.length);
    const passageLists: PostingList[] = [];
    const lens = passages.map((p) => analyze(p.text));
    const avgPassage = Math.max(1, lens.reduce((a, t) => a + wordCount(t), 0) / Math.max(1, lens.length));
    passages.forEach((p, pi) => {
      this.passageDoc[pi] = docIndex.get(p.documentId) ?? 0;
      const ids = Int32Array.from(lens[pi]!, (t) => this.termId(t));
      this.passageTerms.push(ids);
      const norm = 1 - PASSAGE_B + (PASSAGE_B * wordCount(lens[pi]!)) / avgPassage;
      for (const [t, n] of counts(ids)) add(passageLists, t, pi, n / (n + K1 * norm));
    });
    const nd = documents.length;
    const np = passages.length;
    // Coverage weighs words by their passage IDF: a word no passage has weighs as the rarest.
    this.maxIdf = idf(passages.length, 0.5);
    for (let t = 0; t < this.vocab.size; t++) {
      const dl = docLists[t] ?? EMPTY;
      const pl = passageLists[t] ?? EMPTY;
      const di = idf(nd, dl.ids.length);
      const pidf = idf(np, pl.ids.length);
      this.passageIdf[t] = pidf;
      this.docPostings[t] = toPostings(dl, di, false);
      this.passagePostings[t] = toPostings(pl, pidf, true);
    }
    this.stamp = new Int32Array(this.vocab.size);
  }

  get vocabularySize(): number {
    return this.vocab.size;
  }

  /**
   * Ranks passages for a question's words (and context words taken from the conversation, weighted below).
   * `thread`: the passage that answered the thread's previous question; a follow-up's passages of its document
   * are favoured (the conversation stays on the page it is about unless another page answers clearly better).
   */
  search(words: QueryWord[], context: QueryWord[] = [], limit = 20, thread?: number): SearchResult {
    const terms = this.expand(words, context);
    const docScore = new Float64Array(this.documentCount);
    const passageScore = new Float64Array(this.passageDoc.length);
    const touched: number[] = [];
    // An expansion used by a large share of the passages adds little to the ranking and costs a walk of its whole
    // posting list: it still counts in the coverage below, not in the scores.
    const common = Math.max(COMMON_EXPANSION_MIN, this.passageDoc.length * COMMON_EXPANSION_SHARE);
    for (const q of terms) {
      const t = this.vocab.get(q.term);
      if (t === undefined) continue;
      if (q.kind !== 'question' && q.kind !== 'part' && q.kind !== 'context' && this.passagePostings[t]!.ids.length > common) continue;
      const dp = this.docPostings[t]!;
      for (let i = 0; i < dp.ids.length; i++) {
        const d = dp.ids[i]!;
        docScore[d] = docScore[d]! + q.weight * dp.weights[i]!;
      }
      const pp = this.passagePostings[t]!;
      for (let i = 0; i < pp.ids.length; i++) {
        const p = pp.ids[i]!;
        if (passageScore[p] === 0) touched.push(p);
        passageScore[p] = passageScore[p]! + q.weight * pp.weights[i]!;
      }
    }
    const candidates = topK(touched, (p) => passageScore[p]! + DOCUMENT_WEIGHT * docScore[this.passageDoc[p]!]!, RERANK);
    const ids = terms.map((q) => this.vocab.get(q.term) ?? -1);
    // The final order weighs the score by how much of the question the passage covers: a passage that scores on
    // one frequent word ("account", "card") does not beat one that holds the question's rarest word.
    const expansions = new Map<string, number[]>();
    terms.forEach((e, j) => {
      if (COVERS[e.kind] === undefined || ids[j]! < 0) return;
      const list = expansions.get(e.source);
      if (list) list.push(j);
      else expansions.set(e.source, [j]);
    });
    const threadDoc = thread === undefined ? -1 : (this.passageDoc[thread] ?? -1);
    const ranked = candidates
      .map(({ p, s }) => {
        const c = this.coverage(p, terms, ids, expansions);
        const stay = this.passageDoc[p] === threadDoc ? THREAD_PAGE_BONUS : 1;
        return { p, s: (s + this.proximity(p, terms, ids)) * (COVERAGE_FLOOR + c.content) * stay, c };
      })
      .sort((a, b) => b.s - a.s)
      .slice(0, limit);
    return { terms, passages: ranked.map(({ p, s, c }) => ({ index: p, score: s, coverage: c.coverage, uncovered: c.uncovered })) };
  }

  /** The question's words, then context words, derivations, synonyms, broader and co-occurring terms the knowledge base uses. */
  private expand(words: QueryWord[], context: QueryWord[]): QueryTerm[] {
    const out: QueryTerm[] = [];
    const seen = new Set<string>();
    const add = (term: string, source: string, weight: number, kind: QueryTerm['kind']) => {
      if (seen.has(term)) return;
      seen.add(term);
      out.push({ term, source, weight, kind });
    };
    const known = (lemma: string, source: string, weight: number, kind: QueryTerm['kind']) => {
      for (const part of lowerWords(lemma)) {
        const s = stemWord(part);
        if (this.vocab.has(s)) add(s, source, weight, kind);
      }
    };
    for (const w of words) add(this.termFor(w), w.of ?? w.word, w.weight, w.of ? 'part' : 'question');
    const thread = context.map((w) => ({ ...w, weight: w.weight * CONTEXT_WEIGHT }));
    for (const w of thread) add(this.termFor(w), w.word, w.weight, 'context');
    const table = wordnet();
    for (const w of [...words, ...thread]) {
      if (w.of) continue;
      const lemma = lemmaOf(w.word);
      const compound = E_COMPOUND.exec(lemma);
      if (compound && !table?.stems.has(w.stem)) {
        // "ebikes", "e-bike": the bike, and the electric (or electronic) it is.
        known(compound[1]!, w.word, w.weight * COMPOUND_WEIGHT, 'compound');
        known('electric electronic', w.word, w.weight * COMPOUND_WEIGHT, 'compound');
        for (const syn of synonymsOf(table, lemmaOf(compound[1]!))) known(syn, w.word, w.weight * SYNONYM_WEIGHT, 'synonym');
      }
      for (const form of everydayForms(w.word)) known(form, w.word, w.weight * EVERYDAY_WEIGHT, 'everyday');
      const relations = relationsOf(table, lemma);
      const specific = relations ? Math.min(1, Math.sqrt(2 / relations.senses)) : 1;
      for (const d of relations?.derivations ?? []) known(d, w.word, w.weight * DERIVATION_WEIGHT, 'derivation');
      for (const syn of synonymsOf(table, lemma)) known(syn, w.word, w.weight * SYNONYM_WEIGHT * specific, 'synonym');
      if (relations?.noun) for (const b of relations.broader) known(b, w.word, w.weight * BROADER_WEIGHT * specific, 'broader');
    }
    for (const w of words) {
      for (const t of this.cooccurring(w.stem)) add(t, w.word, w.weight * COOCCURRENCE_WEIGHT, 'cooccurrence');
    }
    return out;
  }

  /** A clipped word's full form ("db" → database), or the clipped form when only that is in this knowledge base. */
  private termFor(w: QueryWord): string {
    return w.clipped && !this.vocab.has(w.stem) && this.vocab.has(w.clipped) ? w.clipped : w.stem;
  }

  /**
   * Terms most associated with `stem` in the passages that use it most (count × IDF, the term itself excluded).
   * Postings are sorted by weight at build, so the sample is their head; results are kept per term.
   */
  private cooccurring(stem: string): string[] {
    const t = this.vocab.get(stem);
    if (t === undefined) return [];
    let found = this.associated.get(t);
    if (found) return found;
    const pp = this.passagePostings[t]!;
    const sample = Math.min(pp.ids.length, COOCCURRENCE_SAMPLE);
    const tally = new Map<number, number>();
    this.generation += 1;
    for (let i = 0; i < sample; i++) {
      for (const u of this.passageTerms[pp.ids[i]!]!) {
        if (u === t || this.stamp[u] === this.generation) continue;
        this.stamp[u] = this.generation;
        tally.set(u, (tally.get(u) ?? 0) + 1);
      }
      this.generation += 1;
    }
    // A term must appear in at least half of the sampled passages to count as associated.
    const min = Math.max(2, sample / 2);
    found = [...tally.entries()]
      .filter(([, n]) => n >= min)
      .map(([u, n]) => ({ u, s: n * this.passageIdf[u]! }))
      .sort((a, b) => b.s - a.s)
      .slice(0, COOCCURRENCE_TERMS)
      .map(({ u }) => this.termList[u]!);
    if (this.associated.size < 50_000) this.associated.set(t, found);
    return found;
  }

  /** Bonus for pairs of different query terms within a few words of each other (closest occurrence per pair). */
  private proximity(p: number, terms: QueryTerm[], ids: number[]): number {
    const seq = this.passageTerms[p]!;
    const last = new Map<number, number>();
    const best = new Map<string, number>();
    for (let pos = 0; pos < seq.length; pos++) {
      const q = ids.indexOf(seq[pos]!);
      if (q < 0) continue;
      for (const [other, at] of last) {
        if (other === q || pos - at > PROXIMITY_WINDOW) continue;
        const key = other < q ? `${other}:${q}` : `${q}:${other}`;
        const gain =
          (Math.min(terms[q]!.weight, terms[other]!.weight) * Math.min(this.passageIdf[ids[q]!]!, this.passageIdf[ids[other]!]!)) /
          (pos - at);
        if (gain > (best.get(key) ?? 0)) best.set(key, gain);
      }
      last.set(q, pos);
    }
    let sum = 0;
    for (const g of best.values()) sum += g;
    return PROXIMITY_WEIGHT * sum;
  }

  /**
   * How much of the question (IDF-weighted; an unknown word weighs the most) the passage covers. Words of the
   * thread's previous questions count at their weight: a follow-up is answered by the passage that covers the
   * thread's subject and the follow-up's own words.
   */
  private coverage(
    p: number,
    terms: QueryTerm[],
    ids: number[],
    expansions: Map<string, number[]>,
  ): { coverage: number; content: number; uncovered: string[] } {
    const present = new Set(this.passageTerms[p]!);
    const head = this.docHeadTerms[this.passageDoc[p]!]!;
    const has = (i: number) => ids[i]! >= 0 && (present.has(ids[i]!) || head.has(ids[i]!));
    let total = 0;
    let covered = 0;
    // The same without the question's frame words ("how does sync *work*"): what ranking weighs.
    let contentTotal = 0;
    let contentCovered = 0;
    const uncovered: string[] = [];
    terms.forEach((q, i) => {
      if (q.kind !== 'question' && q.kind !== 'context') return;
      const weight = q.weight * (ids[i]! >= 0 ? this.passageIdf[ids[i]!]! : this.maxIdf * unknownFactor(q.term));
      let share = 1;
      if (!has(i)) {
        // An expansion of the word that the passage has covers part of it (an identifier's parts do not: `pg`
        // and `cron` do not make the knowledge base know `pg_cron`).
        share = 0;
        for (const j of expansions.get(q.source) ?? []) if (has(j)) share = Math.max(share, COVERS[terms[j]!.kind]!);
        if (!share) uncovered.push(q.source);
      }
      total += weight;
      covered += weight * share;
      if (q.kind === 'context' || q.weight >= 1) {
        contentTotal += weight;
        contentCovered += weight * share;
      }
    });
    const coverage = total > 0 ? covered / total : 0;
    return { coverage, content: contentTotal > 0 ? contentCovered / contentTotal : coverage, uncovered };
  }

  private termId(term: string): number {
    let id = this.vocab.get(term);
    if (id === undefined) {
      this.vocab.set(term, (id = this.vocab.size));
      this.termList.push(term);
    }
    return id;
  }
}

/** Markdown heading lines of a text (without their `#`s) and the rest. */
export function splitHeadings(text: string): { headings: string; body: string } {
  const headings: string[] = [];
  const body: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (m) headings.push(m[1]!);
    else body.push(line);
  }
  return { headings: headings.join('\n'), body: body.join('\n') };
}

/**
 * A question word the knowledge base never uses weighs more when no dictionary knows it either: a product name
 * or jargon (`pgbouncer`, `kubernetes`, `pg_cron`) says the question is about something else.
 */
const NAME_FACTOR = 6;
/**
 * An English word the knowledge base does not use is as often the asker's own wording as a foreign topic; a noun
 * less so: it is what the question is about ("skateboards", "scooters"), and a passage that only shares the
 * question's verb ("sell", "repair") does not answer it.
 */
const WORD_FACTOR = 0.5;
const NOUN_FACTOR = 2;
function unknownFactor(term: string): number {
  const table = wordnet();
  if (!table || /\d/.test(term)) return 1;
  if (!table.stems.has(term)) return NAME_FACTOR;
  return table.nounStems.has(term) ? NOUN_FACTOR : WORD_FACTOR;
}

/** A word with an `e` prefix: "ebike", "e-bikes", "escooter" (its base, when WordNet does not know the whole). */
const E_COMPOUND = /^e-?([a-z]{3,})$/;

/** The `k` items of highest score, best first (one pass, a sorted buffer of k: no sort of every candidate). */
function topK(items: number[], score: (item: number) => number, k: number): Array<{ p: number; s: number }> {
  const best: Array<{ p: number; s: number }> = [];
  for (const p of items) {
    const s = score(p);
    if (best.length === k && s <= best[k - 1]!.s) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.s < s) at -= 1;
    best.splice(at, 0, { p, s });
    if (best.length > k) best.pop();
  }
  return best;
}

/** Length of a field or passage in words: a hyphenated compound's whole form is indexed beside its parts. */
function wordCount(terms: string[]): number {
  let n = 0;
  for (const t of terms) if (!t.includes('-') || /[_./]/.test(t)) n += 1;
  return n;
}

function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function counts(ids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of ids) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

interface PostingList {
  ids: number[];
  weights: number[];
}
const EMPTY: PostingList = { ids: [], weights: [] };

function add(lists: PostingList[], term: number, id: number, weight: number): void {
  const list = (lists[term] ??= { ids: [], weights: [] });
  list.ids.push(id);
  list.weights.push(weight);
}

/** Typed postings scaled by the term's IDF; `byWeight` orders them best first (co-occurrence samples the head). */
function toPostings(list: PostingList, idfWeight: number, byWeight: boolean): Postings {
  const order = list.ids.map((_, i) => i);
  if (byWeight) order.sort((a, b) => list.weights[b]! - list.weights[a]!);
  return { ids: Int32Array.from(order, (i) => list.ids[i]!), weights: Float32Array.from(order, (i) => list.weights[i]! * idfWeight) };
}
