import { applyDenseRanking, denseNarrative } from './dense-turn.js';

type P = { id: string };
const passages: P[] = [{ id: 'a#p1' }, { id: 'b#p1' }, { id: 'c#p1' }];
const lexical = [
  { passage: passages[0]!, score: 9, coverage: 1 },
  { passage: passages[1]!, score: 4, coverage: 0.5 },
];
const candidate = (passage: P) => ({ passage, score: 0, coverage: 0 });

describe('applyDenseRanking', () => {
  it('keeps the lexical order and says nothing without embeddings', () => {
    expect(applyDenseRanking(lexical, undefined, passages, candidate)).toEqual({ ranked: lexical, trace: null });
  });

  it('keeps the lexical order and records why when the provider failed', () => {
    const r = applyDenseRanking(lexical, { status: 'failed', model: 'm', reason: 'answered 503', held: false }, passages, candidate);
    expect(r.ranked).toBe(lexical);
    expect(r.trace).toEqual({ status: 'failed', model: 'm', reason: 'answered 503', held: false, min_similarity: null, fused: [] });
    expect(denseNarrative(r.trace)).toContain('ranked lexically');
    const held = applyDenseRanking(
      lexical,
      { status: 'failed', model: 'm', reason: 'answered 503 3 s ago', held: true },
      passages,
      candidate,
    );
    expect(held.trace).toMatchObject({ status: 'failed', held: true });
    expect(denseNarrative(held.trace)).toContain('it was not called: answered 503 3 s ago');
  });

  it('reorders by fusion, adds dense-only passages as fresh candidates, and keeps the lexical fields of the others', () => {
    const r = applyDenseRanking(
      lexical,
      {
        status: 'used',
        model: 'm',
        minSimilarity: 0.3,
        hits: [
          { position: 1, similarity: 0.9 },
          { position: 2, similarity: 0.7 },
          { position: 0, similarity: 0.1 },
        ],
      },
      passages,
      candidate,
    );
    expect(r.ranked.map((x) => [x.passage.id, x.coverage])).toEqual([
      ['b#p1', 0.5],
      ['a#p1', 1],
      ['c#p1', 0],
    ]);
    expect(r.ranked[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(r.trace!.fused.map((f) => [f.passage_id, f.lexical_rank, f.dense_rank])).toEqual([
      ['b#p1', 2, 1],
      ['a#p1', 1, null],
      ['c#p1', null, 2],
    ]);
    expect(denseNarrative(r.trace)).toContain('1 of the top passages came from the embeddings alone');
  });
});
