import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { MODEL_DECLINE_SENTENCE } from '../../src/modules/runtime/providers/grounding.js';
import type { TestOrg } from '../factories/factory.js';
import { liveAgent, type LiveTestAgent } from '../support/agents.js';
import { startFakeEmbeddings, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Topics of the fake's vectors: a text points along the first topic one of whose words it contains. */
const TOPICS = [['broken', 'smashed', 'crushed'], ['return', 'refund'], ['gift'], ['open', 'hours']];
const vectorFor = (text: string): number[] => {
  const lower = text.toLowerCase();
  const topic = TOPICS.findIndex((words) => words.some((w) => lower.includes(w)));
  return TOPICS.map((_, i) => (i === topic ? 1 : 0.05));
};

const KNOWLEDGE: NonNullable<Bundle['knowledge']> = [
  { id: 'returns', title: 'Returns policy', text: 'You can return any item within 30 days of delivery for a full refund.' },
  { id: 'damaged', title: 'Damaged parcels', text: 'If a parcel arrives broken, photograph it and we send a replacement at no cost.' },
  { id: 'gift-cards', title: 'Gift cards', text: 'Gift cards never expire and can be used for any purchase in our stores.' },
  { id: 'hours', title: 'Opening hours', text: 'Our stores are open from nine to five on weekdays.' },
];
const LEXICAL: Bundle = { schema_version: 1, name: 'Parcel help', knowledge: KNOWLEDGE };
let revisions = 0;
/**
 * The bundle with an embeddings model, under a name of its own: a new digest, so no test finds vectors that an
 * earlier one left in the service's memory (the table is emptied between tests, the process's cache is not).
 */
const fusedBundle = (): Bundle => ({
  ...LEXICAL,
  name: `Parcel help ${(revisions += 1)}`,
  embeddings: { provider: 'openai', model: 'test-embed-1' },
});

/** Words of the question only (no passage title): what the fake saw for queries. */
const passageInputs = (fake: FakeEmbeddingsServer) => fake.inputs().filter((i) => i.includes('\n\n'));

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Reply = {
  message: {
    text: string;
    trace_info: {
      citations_used: Array<{ document_id: string }>;
      checks: Array<{ name: string; passed: boolean; detail: string }>;
      narrative: string;
      dense_retrieval: {
        status: string;
        model: string;
        reason: string | null;
        held: boolean;
        fused: Array<{ passage_id: string; lexical_rank: number | null; dense_rank: number | null; similarity: number | null }>;
      } | null;
      model_decline: { declined: boolean; how: string | null; matched: string | null } | null;
    };
  };
};

describe('embeddings: dense retrieval fused with the lexical ranking (fake /v1/embeddings)', () => {
  let embeddings: FakeEmbeddingsServer;
  let openai: FakeServer;
  let t: TestApp;
  let org: TestOrg;
  const env = () => ({
    EMBEDDINGS_BASE_URL: embeddings.url,
    EMBEDDINGS_API_KEY: 'test-embeddings-key',
    EMBEDDINGS_BATCH_SIZE: '3',
    EMBEDDINGS_MAX_ATTEMPTS: '2',
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: 'test-key',
    PROVIDER_TIMEOUT_MS: '5000',
    EMBEDDINGS_QUERY_TIMEOUT_MS: '5000',
  });

  beforeAll(async () => {
    embeddings = await startFakeEmbeddings({ vectorFor });
    openai = await startFakeOpenAI();
    t = await createTestApp(env());
  });
  afterAll(async () => {
    await t.close();
    await embeddings.close();
    await openai.close();
  });
  beforeEach(async () => {
    await t.reset();
    embeddings.reset();
    embeddings.behave({ vectorFor });
    openai.behave({});
    org = await t.factory.org();
  });

  const ask = async (agent: LiveTestAgent, text: string) => {
    const res = await t.http.post<Reply>('/messaging/v1/messages', { text, user_id: 'u1', include_trace: true }, agent.headers);
    expect(res.status).toBe(200);
    return res.body.message;
  };

  it('embeds the passages at publish, batched, and answers a paraphrase the lexical ranking misses', async () => {
    const lexical = await liveAgent(t, org, { runtime: 'v2', bundle: LEXICAL });
    const without = await ask(lexical, 'Everything inside was crushed, what now?');
    expect(without.trace_info.citations_used).toEqual([]);
    expect(without.trace_info.dense_retrieval).toBeNull();
    expect(embeddings.requests).toHaveLength(0);

    const fused = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    await until(() => passageInputs(embeddings).length === 4, 'the publish to embed the passages');
    expect(embeddings.requests.map((r) => (r.body.input as string[]).length)).toEqual([3, 1]);
    expect(embeddings.requests[0]!.body).toMatchObject({ model: 'test-embed-1', encoding_format: 'float' });

    const reply = await ask(fused, 'Everything inside was crushed, what now?');
    expect(reply.trace_info.citations_used.map((c) => c.document_id)).toEqual(['damaged']);
    expect(reply.text).toContain('photograph it');
    const dense = reply.trace_info.dense_retrieval!;
    expect(dense).toMatchObject({ status: 'used', model: 'test-embed-1', reason: null });
    // The words alone reach the passage only through a synonym and too weakly to answer (the lexical agent declined);
    // the vectors put it first, above min_similarity, so the fused turn answers from it.
    expect(dense.fused[0]).toEqual(expect.objectContaining({ passage_id: 'damaged#p1', dense_rank: 1, similarity: 1 }));
    // the turn embedded only its question
    expect(embeddings.inputs().slice(4)).toEqual(['Everything inside was crushed, what now?']);
  });

  it('reorders what both rankings find: the passage the vectors put first leads when the words favour another', async () => {
    const lexical = await liveAgent(t, org, { runtime: 'v2', bundle: LEXICAL });
    const fused = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    const question = 'Can I return an item that arrived broken for a full refund?';
    const byWords = await ask(lexical, question);
    expect(byWords.trace_info.citations_used[0]!.document_id).toBe('returns');
    const byBoth = await ask(fused, question);
    expect(byBoth.trace_info.citations_used[0]!.document_id).toBe('damaged');
    const first = byBoth.trace_info.dense_retrieval!.fused[0]!;
    expect(first).toMatchObject({ passage_id: 'damaged#p1', dense_rank: 1 });
    expect(first.lexical_rank).not.toBeNull();
  });

  it('stores the vectors: a restarted service embeds only questions, never the passages again', async () => {
    const agent = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    await ask(agent, 'My package came smashed, what now?');
    expect(passageInputs(embeddings)).toHaveLength(4);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM passage_embeddings`);
    expect(n).toBe(4);

    await t.close();
    t = await createTestApp(env());
    const again = await ask(agent, 'Is a crushed box covered?');
    expect(again.trace_info.citations_used.map((c) => c.document_id)).toEqual(['damaged']);
    expect(passageInputs(embeddings)).toHaveLength(4);
    expect(embeddings.inputs().at(-1)).toBe('Is a crushed box covered?');

    // a new revision that only adds a document embeds that document alone (the others' vectors are reused)
    const extra = { ...fusedBundle(), knowledge: [...KNOWLEDGE, { id: 'pets', title: 'Pets', text: 'Dogs are welcome in every store.' }] };
    await liveAgent(t, org, { runtime: 'v2', bundle: extra });
    await until(() => passageInputs(embeddings).length === 5, 'the new document to be embedded');
    expect(passageInputs(embeddings).at(-1)).toBe('Pets\n\nDogs are welcome in every store.');
  });

  it('retries a rate-limited batch (Retry-After) and still embeds every passage once', async () => {
    embeddings.behave({ vectorFor, failNext: { count: 1, status: 429, retryAfter: 0 } });
    const agent = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    const reply = await ask(agent, 'My package came smashed, what now?');
    expect(reply.trace_info.dense_retrieval!.status).toBe('used');
    expect(embeddings.requests.slice(0, 2).map((r) => (r.body.input as string[]).length)).toEqual([3, 3]);
    expect(passageInputs(embeddings)).toHaveLength(4);
  });

  it('degrades to the lexical ranking when the provider fails, and says so in the trace', async () => {
    // at publish: the passages cannot be embedded; turns answer lexically
    embeddings.behave({ vectorFor, failStatus: 503 });
    const failing = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    const reply = await ask(failing, 'Can I return an item that arrived broken for a full refund?');
    expect(reply.trace_info.citations_used[0]!.document_id).toBe('returns');
    expect(reply.trace_info.dense_retrieval).toMatchObject({ status: 'failed', model: 'test-embed-1', fused: [] });
    expect(reply.trace_info.dense_retrieval!.reason).toContain('503');
    expect(reply.trace_info.narrative).toMatch(/lexical/i);
    expect(embeddings.requests.length).toBe(2); // tried twice (EMBEDDINGS_MAX_ATTEMPTS), then held off

    // at turn time: the passages are stored but the question cannot be embedded
    embeddings.behave({ vectorFor });
    const healthy = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    await ask(healthy, 'My package came smashed, what now?');
    embeddings.behave({ vectorFor, failStatus: 500 });
    const degraded = await ask(healthy, 'Everything inside was crushed, what now?');
    expect(degraded.trace_info.dense_retrieval).toMatchObject({ status: 'failed', reason: expect.stringContaining('500') });
    expect(degraded.trace_info.citations_used).toEqual([]);
  });

  it('holds the question off during an outage: a hanging endpoint costs one call for the turns of the hold, each answered lexically', async () => {
    const agent = await liveAgent(t, org, { runtime: 'v2', bundle: fusedBundle() });
    await until(() => passageInputs(embeddings).length === 4, 'the publish to embed the passages');
    const calls = embeddings.requests.length;
    embeddings.behave({ vectorFor, hang: true });

    const question = 'Can I return an item that arrived broken for a full refund?';
    const replies = [];
    for (let turn = 0; turn < 5; turn += 1) replies.push(await ask(agent, question));

    // One request reached the endpoint (the first turn's question, abandoned after EMBEDDINGS_QUERY_TIMEOUT_MS), not five.
    expect(embeddings.requests.length - calls).toBe(1);
    expect(embeddings.requests.at(-1)!.body.input).toEqual([question]);
    // Every turn answered from the lexical ranking, and its trace says whether the endpoint was called at all.
    expect(replies.map((r) => r.trace_info.citations_used[0]?.document_id)).toEqual(replies.map(() => 'returns'));
    expect(replies.map((r) => [r.trace_info.dense_retrieval!.status, r.trace_info.dense_retrieval!.held])).toEqual([
      ['failed', false],
      ...replies.slice(1).map(() => ['failed', true]),
    ]);
    expect(replies[0]!.trace_info.dense_retrieval!.reason).toContain('did not answer within');
    expect(replies[1]!.trace_info.dense_retrieval!.reason).toMatch(/^question embedding failed: the embeddings endpoint did not answer/);
    expect(replies[1]!.trace_info.narrative).toMatch(/not called/);
  });

  it('with an LLM provider: the model is told to answer only from the passages, and its decline is recognised', async () => {
    const bundle: Bundle = { ...fusedBundle(), model: { provider: 'openai', name: 'gpt-test' } };
    const agent = await liveAgent(t, org, { runtime: 'v2', bundle });
    const answered = await ask(agent, 'My package came smashed, what now?');
    const system = String((openai.requests.at(-1)!.body.messages as Array<{ content: string }>)[0]!.content);
    expect(system).toContain('Answer only from the numbered sources');
    expect(system).toContain(MODEL_DECLINE_SENTENCE);
    expect(system).toContain('[1] Damaged parcels');
    expect(answered.trace_info.model_decline).toEqual({ declined: false, how: null, matched: null });
    expect(answered.trace_info.citations_used.map((c) => c.document_id)).toEqual(['damaged']);

    openai.behave({ reply: () => MODEL_DECLINE_SENTENCE });
    const declined = await ask(agent, 'How do I return an item that arrived broken?');
    expect(declined.text).toBe(MODEL_DECLINE_SENTENCE);
    expect(declined.trace_info.model_decline).toEqual({ declined: true, how: 'sentence', matched: MODEL_DECLINE_SENTENCE });
    expect(declined.trace_info.citations_used).toEqual([]);
    expect(declined.trace_info.checks.find((c) => c.name === 'answer_is_grounded')).toMatchObject({ passed: true });
    expect(declined.trace_info.narrative).toMatch(/model said the passages do not answer/i);
  });
});
