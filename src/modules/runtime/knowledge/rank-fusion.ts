/** The constant of reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): damps the head of each list. */
export const RRF_K = 60;

export interface FusedItem<T> {
  item: T;
  /** Σ 1 / (k + rank) over the lists the item appears in (ranks from 1). */
  score: number;
  /** The item's rank in each input list, 1-based; null where the list does not hold it. */
  ranks: Array<number | null>;
}

/**
 * Reciprocal rank fusion of ranked lists (best first). Only ranks count, not scores, so lists on incomparable
 * scales (BM25 and cosine similarity) combine without calibration; an item that several lists place well beats one
 * that a single list places first. Ties keep the order of first appearance (list by list), so the result is
 * deterministic. An item repeated within one list counts at its best rank only.
 */
export function reciprocalRankFusion<T>(lists: ReadonlyArray<readonly T[]>, k = RRF_K): Array<FusedItem<T>> {
  const fused = new Map<T, FusedItem<T> & { order: number }>();
  lists.forEach((list, l) => {
    list.forEach((item, i) => {
      let entry = fused.get(item);
      if (!entry) {
        entry = { item, score: 0, ranks: lists.map(() => null), order: fused.size };
        fused.set(item, entry);
      }
      if (entry.ranks[l] !== null) return;
      entry.ranks[l] = i + 1;
      entry.score += 1 / (k + i + 1);
    });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ item, score, ranks }) => ({ item, score, ranks }));
}
