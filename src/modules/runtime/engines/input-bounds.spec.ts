import { jest } from '@jest/globals';
import { INPUT_LIMITS } from '../../../common/validation/input-limits.js';
import { compileTenantPattern, PATTERN_DFA_MAX_BYTES, testTenantPattern } from '../../bundles/bundle-pattern.js';
import type { Bundle } from '../../bundles/bundle.types.js';
import { KB_BUNDLE } from '../../../../test/fixtures/runtime/kb.fixture.js';
import { agentFor, newRuntime, turn } from '../../../../test/fixtures/runtime/runtime.fixture.js';
import { SHOP_BUNDLE } from '../../../../test/fixtures/runtime/shop.fixture.js';
import type { QueryWord } from '../knowledge/analyzer.js';
import { KnowledgeRetriever } from '../knowledge/retriever.js';
import { EngineInputError } from '../runtime.errors.js';
import { MAX_QUERY_TERMS, sentences, words } from '../text/terms.js';
import { BPE_RUN_MAX, bpePieces, countTextTokens } from '../text/token-counter.js';
import { IntentClassifier } from './intent-classifier.js';
import { CatalogPostings } from './v1/catalog-postings.js';

/**
 * The work one message can cause is bounded: every word the search, fuzzy matching and intent recognition
 * see is at most searchTokenMaxChars long, a search query has at most MAX_QUERY_TERMS terms, and tenant
 * patterns see at most patternInputMaxChars characters. Asserted on what reaches the indexes, not on time.
 */
const MAX = INPUT_LIMITS.searchTokenMaxChars;
const letters = 'abcdefghijklmnopqrstuvwxyz';
/** One word of `n` letters that matches nothing (no repeats a prefix or fuzzy match could use). */
const oneWord = (n: number) => Array.from({ length: n }, (_, i) => letters[(i * 7 + Math.floor(i / 26)) % 26]).join('');
/** `n` characters of distinct words. */
const manyWords = (n: number) => {
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < n; i += 1) {
    const w = `${oneWord(5 + (i % 7))}${i.toString(36)}`;
    out.push(w);
    length += w.length + 1;
  }
  return out.join(' ').slice(0, n);
};

/** Records every query string a catalog search is made of while `fn` runs. */
async function searchedQueries(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = CatalogPostings.terms.bind(CatalogPostings);
  const spy = jest.spyOn(CatalogPostings, 'terms').mockImplementation((query: string) => {
    seen.push(query);
    return original(query);
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

/** Records the question words handed to any knowledge retriever while `fn` runs (one query per search). */
async function retrievedQueries(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = KnowledgeRetriever.prototype.search;
  const spy = jest.spyOn(KnowledgeRetriever.prototype, 'search').mockImplementation(function (
    this: KnowledgeRetriever,
    words: QueryWord[],
    context?: QueryWord[],
  ) {
    seen.push(words.map((w) => w.word).join(' '));
    return original.call(this, words, context);
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

const catalogEveryMessage: Bundle = { ...SHOP_BUNDLE, tools: SHOP_BUNDLE.tools!.map(({ intents: _gate, ...tool }) => tool) };

describe('bounded work per message', () => {
  const runtime = newRuntime();
  const shop = agentFor(runtime, 'v1', catalogEveryMessage);
  const kb = agentFor(runtime, 'v2', KB_BUNDLE);

  it.each([16_384, 32_000])('v1 catalog search of a %i-letter word searches only its first searchTokenMaxChars letters', async (n) => {
    const word = oneWord(n);
    const queries = await searchedQueries(() => runtime.run(shop, turn(word)));
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) expect(q).toBe(word.slice(0, MAX));
  });

  it('v1 catalog search of 16,384 characters of words searches at most MAX_QUERY_TERMS bounded terms', async () => {
    const text = manyWords(16_384);
    const queries = await searchedQueries(() => runtime.run(shop, turn(text)));
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) {
      const terms = q.split(' ');
      expect(terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      expect(terms.every((t) => t.length <= MAX)).toBe(true);
    }
  });

  it.each([
    ['a 16,384-letter word', oneWord(16_384)],
    ['16,384 characters of words', manyWords(16_384)],
  ])('v2 retrieval and follow-up suggestions of %s search bounded terms', async (_what, text) => {
    const queries = await retrievedQueries(async () => {
      await runtime.run(kb, turn(text));
      runtime.suggest(kb, { text }, 5);
    });
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) {
      const terms = q.split(' ');
      expect(terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      expect(terms.every((t) => t.length <= MAX)).toBe(true);
    }
  });

  it('words, and so intent recognition, see at most searchTokenMaxChars characters of a word', () => {
    expect(words(oneWord(32_000))).toEqual([oneWord(32_000).slice(0, MAX)]);
    expect(words(`Short ${'x'.repeat(100)} words`)).toEqual(['short', 'x'.repeat(MAX), 'words']);
    const classifier = new IntentClassifier([{ name: 'long', examples: [`please ${'y'.repeat(MAX)}`] }]);
    expect(classifier.classify(`${'y'.repeat(16_384)}`).map((m) => m.name)).toEqual(['long']);
  });

  it('counts tokens of a 32,000-letter word in bounded pieces', () => {
    const word = oneWord(32_000);
    const pieces = bpePieces(`hello ${word} world`);
    expect(pieces.join('')).toBe(`hello ${word} world`);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(BPE_RUN_MAX);
    expect(countTextTokens(word)).toBeGreaterThan(1000);
    expect(countTextTokens('hello world')).toBe(2);
  });

  it('counts tokens of a 16,384-space run in bounded pieces too', () => {
    const pieces = bpePieces(`a${' '.repeat(16_384)}b`);
    expect(pieces.join('')).toBe(`a${' '.repeat(16_384)}b`);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(BPE_RUN_MAX);
  });

  it('splits sentences of hostile punctuation runs and answers from such knowledge', async () => {
    expect(sentences(`${'"'.repeat(16_384)} Next one.`)).toHaveLength(1);
    expect(sentences('Done!! "Next" one. Last')).toEqual(['Done!!', '"Next" one.', 'Last']);
    const hostile = agentFor(runtime, 'v2', {
      ...KB_BUNDLE,
      knowledge: [{ id: 'bangs', title: 'Bangs', text: `Returns ${'!'.repeat(100_000)}x ${'"'.repeat(50_000)}` }],
    });
    const r = await runtime.run(hostile, turn('returns'));
    expect(r.text).toContain('[1]');
  });
});

describe('tenant patterns', () => {
  const runtime = newRuntime();
  const redos: Bundle = {
    ...SHOP_BUNDLE,
    guardrails: [{ code: 'redos', patterns: ['^(a+)+$', '(x+x+)+y'], message: 'Blocked.' }],
    parameters: [
      { code: 'tail', title: 'Tail', pattern: 'tail(\\d+)', type: 'number' },
      { code: 'nested', title: 'Nested', pattern: '^(\\w+\\s?)*$', type: 'string' },
    ],
  };
  const agent = agentFor(runtime, 'v1', redos);

  it('run in linear time: catastrophic-backtracking patterns answer at once', async () => {
    const r = await runtime.run(agent, turn(`${'a'.repeat(30)}!`));
    expect(r.text).not.toBe('Blocked.');
    const x = await runtime.run(agent, turn('x'.repeat(5000)));
    expect(x.text).not.toBe('Blocked.');
    expect((await runtime.run(agent, turn('AAAA'))).text).toBe('Blocked.');
  });

  it('keep a bounded DFA cache, even for a pattern built to explode into states', () => {
    const exploding = compileTenantPattern('(?:a|b)*a(?:a|b){14}c');
    let seed = 7;
    const ab = Array.from({ length: INPUT_LIMITS.patternInputMaxChars }, () =>
      (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 2 ? 'a' : 'b',
    ).join('');
    expect(testTenantPattern(exploding, ab)).toBe(false);
    expect(testTenantPattern(exploding, `${'a'.repeat(15)}c`)).toBe(true);
    const dfa = exploding.re2().dfa;
    expect(dfa.stateBudget).toBe(PATTERN_DFA_MAX_BYTES);
    expect(dfa.memBudget).toBeGreaterThanOrEqual(0);
    expect(dfa.memBudget).toBeLessThanOrEqual(PATTERN_DFA_MAX_BYTES);
  });

  it('see at most patternInputMaxChars characters of the text', async () => {
    const filler = 'trail shoes '.repeat(Math.ceil(INPUT_LIMITS.patternInputMaxChars / 12));
    const beyond = await runtime.run(agent, turn(`${filler}tail42`));
    expect(beyond.facets.params).not.toHaveProperty('tail');
    const within = await runtime.run(agent, turn(`trail shoes tail42`));
    expect(within.facets.params).toMatchObject({ tail: 42 });
    const blocking = agentFor(runtime, 'v1', { ...SHOP_BUNDLE, guardrails: [{ code: 'end', patterns: ['endword'], message: 'Blocked.' }] });
    expect((await runtime.run(blocking, turn(`${filler}endword`))).text).not.toBe('Blocked.');
    expect((await runtime.run(blocking, turn('shoes endword'))).text).toBe('Blocked.');
  });

  it('extract the first group, else the whole match, at the right place in the text', async () => {
    const r = await runtime.run(agentFor(runtime, 'v1', SHOP_BUNDLE), turn('😀 trail shoes UNDER $120 in size 44'));
    expect(r.facets.params).toMatchObject({ budget: 120, size: '44' });
    const trace = r.trace as { decisions: Array<{ tool: string; text: string }> };
    expect(trace.decisions.find((d) => d.tool === 'product_search')!.text).toContain('"trail shoes"');
  });
});

describe('engine failures', () => {
  it('are typed and permanent: the same input fails the same way, as EngineInputError (422)', async () => {
    const runtime = newRuntime();
    const agent = agentFor(runtime, 'v1', SHOP_BUNDLE);
    const spy = jest.spyOn(IntentClassifier.prototype, 'classify').mockImplementation(() => {
      throw new RangeError('Invalid typed array length: 1000000000000');
    });
    try {
      const error = await runtime.run(agent, turn('running shoes')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineInputError);
      expect(error).toMatchObject({ status: 422, code: 'unprocessable_input' });
      await expect(runtime.run(agent, turn('running shoes'))).rejects.toBeInstanceOf(EngineInputError);
    } finally {
      spy.mockRestore();
    }
  });
});
