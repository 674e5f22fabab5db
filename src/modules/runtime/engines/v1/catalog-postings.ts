import { processTerm, tokenize } from '../../text/terms.js';

/** minisearch's BM25+ parameters (its defaults, which the catalog index keeps). */
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** minisearch's BM25+ term score, with its operations in its order so the floats are the same. */
function bm25(termFreq: number, matchingCount: number, totalCount: number, fieldLength: number, avgFieldLength: number): number {
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
  return invDocFreq * (D + (termFreq * (K + 1)) / (termFreq + K * (1 - B + (B * fieldLength) / avgFieldLength)));
}

/**
 * The scored matches of one catalog query: per record (by position in the catalog), the minisearch score and the
 * number of distinct query terms matched, and the records in minisearch's result order before its sort by score
 * (which breaks its ties). Scratch arrays are reused from turn to turn (a search runs synchronously).
 */
export class Matches {
  readonly score: Float64Array;
  readonly covered: Uint8Array;
  readonly order: Int32Array;
  count = 0;

  constructor(size: number) {
    this.score = new Float64Array(size);
    this.covered = new Uint8Array(size);
    this.order = new Int32Array(size);
  }

  add(record: number, score: number, covered: number): void {
    this.order[this.count++] = record;
    this.score[record] = score;
    this.covered[record] = covered;
  }

  clear(): void {
    for (let i = 0; i < this.count; i += 1) {
      this.score[this.order[i]!] = 0;
      this.covered[this.order[i]!] = 0;
    }
    this.count = 0;
  }
}

/**
 * Exact-term posting lists of a catalog with each record's score precomputed once per revision as the catalog's
 * MiniSearch computes it per query (same tokens, unique-token field lengths, running average field length, boosts,
 * field order and summation order), so a turn adds up a few lists into typed arrays instead of minisearch building
 * a result object for each of the ~20,000 records a common query matches in a 50,000-record catalog.
 */
export class CatalogPostings<T> {
  /** term → its slot: postings of slot i are docs/scores[offsets[i] .. offsets[i + 1]). */
  private readonly slots = new Map<string, number>();
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  private readonly matches: Matches;

  /**
   * `fields` in the index's order and `boosts` as given to MiniSearch; `extract` is the index's extractField. The
   * records are the ones added to the index, in the order they were added.
   */
  constructor(
    records: readonly T[],
    fields: readonly string[],
    boosts: Record<string, number>,
    extract: (doc: T, field: string) => string,
  ) {
    const n = records.length;
    const lengths = fields.map(() => new Uint32Array(n));
    const average = fields.map(() => 0);
    const postings = fields.map(() => new Map<string, number[]>());
    records.forEach((record, doc) => {
      fields.forEach((field, f) => {
        const tokens = tokenize(extract(record, field));
        lengths[f]![doc] = new Set(tokens).size;
        average[f] = (average[f]! * doc + lengths[f]![doc]!) / (doc + 1);
        const freqs = new Map<string, number>();
        for (const token of tokens) {
          const term = processTerm(token);
          if (term) freqs.set(term, (freqs.get(term) ?? 0) + 1);
        }
        for (const [term, freq] of freqs) {
          const list = postings[f]!.get(term);
          if (list) list.push(doc, freq);
          else postings[f]!.set(term, [doc, freq]);
        }
      });
    });
    // minisearch visits fields in the key order of its boost object, and a record's per-term score is the sum of
    // its fields' in that order; a record first met in a later field comes after those met in an earlier one.
    const boosted = Object.keys(Object.fromEntries(fields.map((f) => [f, boosts[f] || 1])));
    const order = boosted.map((f) => fields.indexOf(f));
    const terms = new Set(postings.flatMap((p) => [...p.keys()]));
    const offsets: number[] = [0];
    const docs: number[] = [];
    const scores: number[] = [];
    const at = new Int32Array(n).fill(-1);
    for (const term of terms) {
      const start = docs.length;
      for (const f of order) {
        const list = postings[f]!.get(term);
        if (!list) continue;
        const boost = boosts[fields[f]!] || 1;
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i]!;
          const weighted = boost * bm25(list[i + 1]!, list.length / 2, n, lengths[f]![doc]!, average[f]!);
          if (at[doc]! < 0) {
            at[doc] = docs.length;
            docs.push(doc);
            scores.push(weighted);
          } else scores[at[doc]!] = scores[at[doc]!]! + weighted;
        }
      }
      for (let i = start; i < docs.length; i += 1) at[docs[i]!] = -1;
      this.slots.set(term, offsets.length - 1);
      offsets.push(docs.length);
    }
    this.offsets = Int32Array.from(offsets);
    this.docs = Int32Array.from(docs);
    this.scores = Float64Array.from(scores);
    this.matches = new Matches(n);
  }

  has(term: string): boolean {
    return this.slots.has(term);
  }

  /** A scratch result set, cleared (for this catalog's size). */
  scratch(): Matches {
    this.matches.clear();
    return this.matches;
  }

  /**
   * minisearch's OR query over exact terms (processed, in query order, repeats kept): per record the sum of its
   * terms' scores in term order, times the number of distinct terms matched; records in first-match order.
   */
  search(terms: readonly string[]): Matches {
    const m = this.scratch();
    const sum = m.score;
    const seen = new Set<string>();
    for (const term of terms) {
      const slot = this.slots.get(term);
      const repeat = seen.has(term);
      seen.add(term);
      if (slot === undefined) continue;
      for (let i = this.offsets[slot]!; i < this.offsets[slot + 1]!; i += 1) {
        const doc = this.docs[i]!;
        if (!m.covered[doc]) m.order[m.count++] = doc;
        sum[doc] = sum[doc]! + this.scores[i]!;
        if (!repeat) m.covered[doc] = m.covered[doc]! + 1;
      }
    }
    for (let i = 0; i < m.count; i += 1) {
      const doc = m.order[i]!;
      sum[doc] = sum[doc]! * m.covered[doc]!;
    }
    return m;
  }
}

/** A binary max-heap of positions 0..n-1 under `better`, popped lazily (only the first few are usually needed). */
export class Heap {
  private readonly items: Int32Array;
  private size: number;

  constructor(
    positions: Int32Array,
    private readonly better: (a: number, b: number) => boolean,
  ) {
    this.items = positions;
    this.size = positions.length;
    for (let i = (this.size >> 1) - 1; i >= 0; i -= 1) this.down(i);
  }

  pop(): number | undefined {
    if (!this.size) return undefined;
    const top = this.items[0]!;
    this.size -= 1;
    this.items[0] = this.items[this.size]!;
    this.down(0);
    return top;
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      const c = l + 1 < this.size && this.better(items[l + 1]!, items[l]!) ? l + 1 : l;
      if (!this.better(items[c]!, items[i]!)) return;
      [items[c], items[i]] = [items[i]!, items[c]!];
      i = c;
    }
  }
}
