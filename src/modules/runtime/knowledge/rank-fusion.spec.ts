import { reciprocalRankFusion, RRF_K } from './rank-fusion.js';

describe('reciprocalRankFusion', () => {
  it('scores each item Σ 1/(k + rank) and records its rank in every list', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ]);
    expect(fused.map((f) => f.item)).toEqual(['a', 'c', 'b']);
    const a = fused[0]!;
    expect(a.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2), 12);
    expect(a.ranks).toEqual([1, 2]);
    expect(fused[2]!.ranks).toEqual([2, null]);
  });

  it('lets an item that both lists place well beat one that only one list places first', () => {
    // lexical: a first, b second; dense: b first, a last of four
    const fused = reciprocalRankFusion([
      ['a', 'b'],
      ['b', 'c', 'd', 'a'],
    ]);
    expect(fused[0]!.item).toBe('b');
    expect(fused.map((f) => f.item)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('breaks ties by first appearance, list by list, so the order is deterministic', () => {
    const fused = reciprocalRankFusion([
      ['x', 'y'],
      ['y', 'x'],
    ]);
    expect(fused[0]!.score).toBe(fused[1]!.score);
    expect(fused.map((f) => f.item)).toEqual(['x', 'y']);
  });

  it('counts an item repeated within one list at its best rank only', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'a']]);
    expect(fused.find((f) => f.item === 'a')!.score).toBeCloseTo(1 / (RRF_K + 1), 12);
    expect(fused.find((f) => f.item === 'a')!.ranks).toEqual([1]);
  });

  it('returns one list unchanged in order and nothing for no lists or empty lists', () => {
    expect(reciprocalRankFusion([[3, 1, 2]]).map((f) => f.item)).toEqual([3, 1, 2]);
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });

  it('honours a custom k: a small k lets the head of one list outweigh agreement between lists', () => {
    const lists = [
      ['a', 'b', 'c'],
      ['c', 'x', 'y', 'b'],
    ] as const;
    expect(reciprocalRankFusion(lists, 0).map((f) => f.item)).toEqual(['c', 'a', 'b', 'x', 'y']);
    expect(reciprocalRankFusion(lists, 0)[0]!.score).toBeCloseTo(1 + 1 / 3, 12);
    expect(reciprocalRankFusion(lists).map((f) => f.item)).toEqual(['c', 'b', 'a', 'x', 'y']);
  });
});
