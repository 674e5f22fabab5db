import SearchableMap from 'minisearch/SearchableMap';
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
  /** Per record, the distinct query terms matched in the type fields (see the constructor's `typeFields`). */
  readonly typed: Uint8Array;
  count = 0;

  constructor(size: number) {
    this.score = new Float64Array(size);
    this.covered = new Uint8Array(size);
    this.order = new Int32Array(size);
    this.typed = new Uint8Array(size);
  }

  clear(): void {
    for (let i = 0; i < this.count; i += 1) {
      this.score[this.order[i]!] = 0;
      this.covered[this.order[i]!] = 0;
      this.typed[this.order[i]!] = 0;
    }
    this.count = 0;
  }
}

/** minisearch's weights for prefix and typo-tolerant matches, and its cap on edit distance. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/**
 * A catalog's posting lists with each record's BM25+ field score computed once per revision, searched as the
 * catalog's MiniSearch index used to be (same tokens, unique-token field lengths, running average field length,
 * boosts, field order, prefix and typo-tolerant expansion, and summation order, so the same floats and ties): a turn
 * adds up a few lists into typed arrays instead of building a result object for each of the ~20,000 records a
 * common query matches in a 50,000-record catalog.
 */
export class CatalogPostings<T> {
  /** Terms in the order the records first use them (the order minisearch inserts them, which its tree follows). */
  private readonly slots = new Map<string, number>();
  private readonly tree: SearchableMap<number>;
  /** Field boosts in the order scores add up (minisearch's boost-object key order). */
  private readonly boosts: Float64Array;
  /** 1 for the fields (in boost order) whose matches count in `Matches.typed`. */
  private readonly typeMask: Uint8Array;
  /** Postings of term slot s in field k: docs/raw[offsets[s * fields + k] .. offsets[s * fields + k + 1]). */
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly raw: Float64Array;
  /** One query term's matches (before they add into the query's), and the query's. */
  private readonly term: Matches;
  private readonly query: Matches;

  /**
   * `fields` in index order, `boosts` per field name (1 when absent), `extract` a record field's text; records are
   * identified by their position.
   */
  constructor(
    records: readonly T[],
    fields: readonly string[],
    boosts: Record<string, number>,
    extract: (doc: T, field: string) => string,
    /** Fields naming the kind of record (title, category): matches there are also counted in `Matches.typed`. */
    typeFields: readonly string[] = [],
  ) {
    const n = records.length;
    const lengths = fields.map(() => new Uint32Array(n));
    const average = fields.map(() => 0);
    /** Per field, per term slot: doc, frequency, doc, frequency… */
    const postings = fields.map((): number[][] => []);
    records.forEach((record, doc) => {
      fields.forEach((field, f) => {
        const tokens = tokenize(extract(record, field));
        lengths[f]![doc] = new Set(tokens).size;
        average[f] = (average[f]! * doc + lengths[f]![doc]!) / (doc + 1);
        const freqs = new Map<number, number>();
        for (const token of tokens) {
          const term = processTerm(token);
          if (!term) continue;
          let slot = this.slots.get(term);
          if (slot === undefined) this.slots.set(term, (slot = this.slots.size));
          freqs.set(slot, (freqs.get(slot) ?? 0) + 1);
        }
        for (const [slot, freq] of freqs) (postings[f]![slot] ??= []).push(doc, freq);
      });
    });
    this.tree = SearchableMap.from(this.slots);
    const order = Object.keys(Object.fromEntries(fields.map((f) => [f, boosts[f] || 1]))).map((f) => fields.indexOf(f));
    this.boosts = Float64Array.from(order, (f) => boosts[fields[f]!] || 1);
    this.typeMask = Uint8Array.from(order, (f) => (typeFields.includes(fields[f]!) ? 1 : 0));
    const width = fields.length;
    this.offsets = new Int32Array(this.slots.size * width + 1);
    const total = postings.reduce((sum, perField) => sum + perField.reduce((s, list) => s + (list ? list.length / 2 : 0), 0), 0);
    this.docs = new Int32Array(total);
    this.raw = new Float64Array(total);
    let at = 0;
    for (let slot = 0; slot < this.slots.size; slot += 1) {
      order.forEach((f, k) => {
        const list = postings[f]![slot] ?? [];
        for (let i = 0; i < list.length; i += 2) {
          this.docs[at] = list[i]!;
          this.raw[at] = bm25(list[i + 1]!, list.length / 2, n, lengths[f]![list[i]!]!, average[f]!);
          at += 1;
        }
        this.offsets[slot * width + k + 1] = at;
      });
    }
    this.term = new Matches(n);
    this.query = new Matches(n);
  }

  /** Processed query terms of a text, as minisearch derives them (repeats kept). */
  static terms(text: string): string[] {
    return tokenize(text)
      .map((w) => processTerm(w))
      .filter((t): t is string => Boolean(t));
  }

  /** A cleared result set for this catalog's records (reused from search to search: a search runs synchronously). */
  scratch(): Matches {
    this.query.clear();
    return this.query;
  }

  /**
   * minisearch's OR query: per record the sum over query terms (in order, repeats kept) of its matching terms'
   * scores, times the number of distinct query terms matched; records in minisearch's order (first match first).
   * With `expand`, a term of 4+ letters also matches the terms it begins, and one of 6+ letters terms one edit away.
   */
  search(terms: readonly string[], expand: boolean): Matches {
    const m = this.scratch();
    const seen = new Set<string>();
    for (const q of terms) {
      const repeat = seen.has(q);
      seen.add(q);
      const t = this.term;
      t.clear();
      const slot = this.slots.get(q);
      if (slot !== undefined) this.collect(slot, 1);
      if (expand) {
        const distance = q.length >= 6 ? Math.min(MAX_FUZZY, Math.round(q.length * 0.2)) : 0;
        const near = distance ? this.tree.fuzzyGet(q, distance) : undefined;
        if (q.length >= 4) {
          for (const [term, s] of this.tree.atPrefix(q)) {
            const extra = term.length - q.length;
            if (!extra) continue;
            near?.delete(term);
            this.collect(s, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * extra));
          }
        }
        for (const [term, [s, edits]] of near ?? []) {
          if (edits) this.collect(s, (FUZZY_WEIGHT * term.length) / (term.length + edits));
        }
      }
      for (let i = 0; i < t.count; i += 1) {
        const doc = t.order[i]!;
        if (!m.covered[doc]) {
          m.order[m.count++] = doc;
          m.covered[doc] = 1;
          m.typed[doc] = t.typed[doc]!;
        } else if (!repeat) {
          m.covered[doc] = m.covered[doc]! + 1;
          m.typed[doc] = m.typed[doc]! + t.typed[doc]!;
        }
        m.score[doc] = m.score[doc]! + t.score[doc]!;
      }
    }
    for (let i = 0; i < m.count; i += 1) {
      const doc = m.order[i]!;
      m.score[doc] = m.score[doc]! * m.covered[doc]!;
    }
    return m;
  }

  /** The `n` best records for exact terms: by score, ties in search order (minisearch's sorted results). */
  best(terms: readonly string[], n: number): number[] {
    const { score, order, count } = this.search(terms, false);
    const heap = new Heap(positions(count), (a, b) =>
      score[order[a]!] !== score[order[b]!] ? score[order[a]!]! > score[order[b]!]! : a < b,
    );
    const out: number[] = [];
    for (let p = heap.pop(); p !== undefined && out.length < n; p = heap.pop()) out.push(order[p]!);
    return out;
  }

  /** Whether some record has the (processed) term. */
  has(term: string): boolean {
    return this.slots.has(term);
  }

  /** Adds a term's field scores, times `weight`, into the current query term's matches (minisearch's termResults). */
  private collect(slot: number, weight: number): void {
    const t = this.term;
    const width = this.boosts.length;
    for (let k = 0; k < width; k += 1) {
      const boost = weight * this.boosts[k]!;
      const typed = this.typeMask[k]!;
      for (let i = this.offsets[slot * width + k]!; i < this.offsets[slot * width + k + 1]!; i += 1) {
        const doc = this.docs[i]!;
        if (!t.score[doc]) t.order[t.count++] = doc;
        if (typed) t.typed[doc] = 1;
        t.score[doc] = t.score[doc]! + boost * this.raw[i]!;
      }
    }
  }
}

/** 0, 1, …, n - 1 (a plain loop: `Int32Array.from` with a mapping function is several times slower). */
export function positions(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i += 1) out[i] = i;
  return out;
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

  /** The best position, without removing it. */
  peek(): number | undefined {
    return this.size ? this.items[0] : undefined;
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
