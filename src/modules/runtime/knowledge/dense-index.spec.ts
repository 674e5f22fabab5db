import { DenseIndex, fuseWithDense, modelKey, passageHash, passageInput } from './dense-index.js';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('DenseIndex', () => {
  const index = new DenseIndex('m', 3, [v(1, 0, 0), v(0, 2, 0), v(1, 1, 0), v(0, 0, 5)]);

  it('ranks passages by cosine similarity, whatever their vectors’ lengths', () => {
    const hits = index.rank(v(0, 3, 0), 4);
    expect(hits.map((h) => h.position)).toEqual([1, 2, 0, 3]);
    expect(hits[0]!.similarity).toBeCloseTo(1, 6);
    expect(hits[1]!.similarity).toBeCloseTo(Math.SQRT1_2, 6);
    expect(hits[2]!.similarity).toBeCloseTo(0, 6);
  });

  it('keeps at most `limit` hits and ignores a query of another size (another model’s vector)', () => {
    expect(index.rank(v(1, 0, 0), 2)).toHaveLength(2);
    expect(index.rank(v(1, 0), 4)).toEqual([]);
    expect(index.size).toBe(4);
  });
});

describe('fuseWithDense', () => {
  it('lets a passage the lexical ranking missed join on dense evidence, and orders the rest by both', () => {
    const fused = fuseWithDense([0, 1], {
      status: 'used',
      model: 'm',
      minSimilarity: 0.3,
      hits: [
        { position: 1, similarity: 0.9 },
        { position: 2, similarity: 0.8 },
        { position: 3, similarity: 0.5 },
        { position: 0, similarity: 0.4 },
      ],
    });
    expect(fused.map((f) => f.position)).toEqual([1, 0, 2, 3]);
    expect(fused[0]).toMatchObject({ lexical_rank: 2, dense_rank: 1, similarity: 0.9 });
    expect(fused[2]).toMatchObject({ lexical_rank: null, dense_rank: 2 });
  });

  it('leaves out dense hits under the minimum similarity', () => {
    const fused = fuseWithDense([], {
      status: 'used',
      model: 'm',
      minSimilarity: 0.5,
      hits: [
        { position: 4, similarity: 0.6 },
        { position: 5, similarity: 0.2 },
      ],
    });
    expect(fused.map((f) => f.position)).toEqual([4]);
  });
});

describe('store keys', () => {
  it('hashes what is embedded (title and text) and keys the model by its requested size', () => {
    const input = passageInput({ title: 'Returns', text: 'Within 30 days.' });
    expect(input).toBe('Returns\n\nWithin 30 days.');
    expect(passageHash(input)).toMatch(/^[0-9a-f]{64}$/);
    expect(passageHash(input)).not.toBe(passageHash(passageInput({ title: 'Returns', text: 'Within 60 days.' })));
    expect(modelKey({ provider: 'openai', model: 'text-embedding-3-small' })).toBe('text-embedding-3-small');
    expect(modelKey({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 256 })).toBe('text-embedding-3-small@256');
  });
});
