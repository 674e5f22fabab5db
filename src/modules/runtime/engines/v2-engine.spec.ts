import type { Bundle } from '../../bundles/bundle.types.js';
import { ValidationError } from '../../../common/errors/app-error.js';
import { KNOWLEDGE_ASSISTANT_TEMPLATE } from '../../bundles/templates/knowledge-assistant.template.js';
import { KB_BUNDLE } from '../../../../test/fixtures/runtime/kb.fixture.js';
import { agentFor, newRuntime, turn, v2Trace } from '../../../../test/fixtures/runtime/runtime.fixture.js';
import { words } from '../text/terms.js';
import { chunkDocument, resolveV2Build } from './v2-engine.js';

describe('v2 grounded engine (builtin provider)', () => {
  const runtime = newRuntime();
  const kb = agentFor(runtime, 'v2', KB_BUNDLE);

  it('answers from the right document with citation markers that map to citations_used', async () => {
    const r = await runtime.run(kb, turn('How many days do I have to return an item?'));
    expect(r.runtime).toBe('v2');
    expect(r.runtimeBuild).toBe('2.1.0');
    expect(r.text).toContain('You can return any unworn item within 30 days of delivery [1].');
    expect(r.cards).toEqual([]);
    const t = v2Trace(r.trace);
    expect(t.runtime).toBe('v2');
    expect(t.build).toBe('2.1.0');
    expect(t.citations_used[0]).toMatchObject({
      marker: 1,
      document_id: 'doc-returns',
      title: 'Returns and refunds',
      url: 'https://help.example.com/returns',
    });
    // every marker in the text has a citation, and every citation's passage is a passage used
    const markers = [...r.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(new Set(markers)).toEqual(new Set(t.citations_used.map((c) => c.marker)));
    for (const c of t.citations_used) {
      const p = t.passages_used.find((u) => u.passage_id === c.passage_id)!;
      expect(p.document_id).toBe(c.document_id);
      expect(c.text).toBe(p.text);
    }
    // the reply is extractive: each sentence (markers removed) occurs in the passage it cites
    for (const sentence of r.text.split(/(?<=\.)\s+/)) {
      const m = /\[(\d+)\]/.exec(sentence)!;
      const source = t.citations_used.find((c) => c.marker === Number(m[1]))!;
      expect(source.text).toContain(sentence.replace(/ \[\d+\]/, ''));
    }
    expect(t.checks.every((c) => c.passed)).toBe(true);
    expect(t.checks.map((c) => c.name)).toEqual(['guardrails', 'citations_map_to_passages', 'answer_is_grounded', 'answerable']);
    expect(t.sources_read.map((s) => s.document_id)).toContain('doc-returns');
    expect(t.understanding).toMatchObject({ question: 'How many days do I have to return an item?', intent: 'returns' });
    expect(t.narrative).toMatch(/Returns and refunds/);
    expect(r.followupSuggestions).toEqual(['How do I print a return label?']);
  });

  it('cites the shipping document for a shipping question', async () => {
    const r = await runtime.run(kb, turn('How long does express shipping take?'));
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]!.document_id).toBe('doc-shipping');
    expect(r.text).toMatch(/Express shipping arrives the next business day/);
  });

  it('says honestly when the knowledge base has no answer, with no citations', async () => {
    const r = await runtime.run(kb, turn('What is the recipe for banana bread?'));
    expect(r.text).toMatch(/^I could not find this in the knowledge base\./);
    const t = v2Trace(r.trace);
    expect(t.citations_used).toEqual([]);
    expect(t.passages_used).toEqual([]);
    expect(t.policies).toContainEqual(expect.objectContaining({ code: 'no_answer_without_sources', decision: 'triggered' }));
  });

  it('blocks on a guardrail without searching', async () => {
    const r = await runtime.run(kb, turn('what is my PASSWORD'));
    expect(r.text).toBe('Never share your password. I can not help with passwords here.');
    const t = v2Trace(r.trace);
    expect(t.checks[0]).toMatchObject({ name: 'guardrails', passed: false });
    expect(t.sources_read).toEqual([]);
  });

  it('honours runtime_version build pins and rejects unknown builds with 422 on runtime_version', async () => {
    expect(resolveV2Build(undefined)).toBe('2.1.0');
    expect(resolveV2Build('2')).toBe('2.1.0');
    expect(resolveV2Build('2.0')).toBe('2.0.0');
    expect(resolveV2Build('2.0.0')).toBe('2.0.0');
    expect(resolveV2Build('2.1')).toBe('2.1.0');
    expect(resolveV2Build('2.1.0')).toBe('2.1.0');
    for (const bad of ['1', '3', '2.2', '2.1.1', 'latest', '2.x']) expect(resolveV2Build(bad)).toBeNull();

    const pinned = await runtime.run(kb, turn('How long does shipping take?', { runtimeVersion: '2.0' }));
    expect(pinned.runtimeBuild).toBe('2.0.0');
    const t = v2Trace(pinned.trace);
    expect(t.build).toBe('2.0.0');
    expect(t.citations_used).toHaveLength(1); // 2.0.0 answers from the single best passage
    const latest = await runtime.run(kb, turn('How long does shipping take?', { runtimeVersion: '2' }));
    expect(latest.runtimeBuild).toBe('2.1.0');

    await expect(runtime.run(kb, turn('hi', { runtimeVersion: '9.9' }))).rejects.toBeInstanceOf(ValidationError);
    await runtime.run(kb, turn('hi', { runtimeVersion: '2.7' })).catch((e: ValidationError) => {
      expect(e.status).toBe(422);
      expect(e.details).toEqual([{ field: 'runtime_version', message: expect.stringContaining('2.7') }]);
    });
  });

  it('completes a short follow-up question with the previous question (build 2.1)', async () => {
    const history = [
      { role: 'user' as const, text: 'How long does international shipping take?' },
      { role: 'agent' as const, text: 'International shipping takes 7 to 14 days [1].' },
    ];
    const r = await runtime.run(kb, turn('What about customs?', { history }));
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]!.document_id).toBe('doc-shipping');
    expect(r.text).toContain('customs fees are paid by the recipient');
    expect(t.learned).toContainEqual({ source: 'history', key: 'previous_question', value: 'How long does international shipping take?' });
  });

  it('records agent variables as learned context and facets', async () => {
    const r = await runtime.run(
      kb,
      turn('How do refunds work?', { agentVariables: { static: { plan: 'plus' }, dynamic: { order: { id: 'A-1' } } } }),
    );
    const t = v2Trace(r.trace);
    expect(t.learned).toEqual([
      { source: 'agent_variables.static', key: 'plan', value: 'plus' },
      { source: 'agent_variables.dynamic', key: 'order.id', value: 'A-1' },
    ]);
    expect(r.facets).toEqual({ tools: [], rules: [], params: { plan: 'plus', 'order.id': 'A-1' } });
  });

  it('chunks documents into passages of about 60-120 words on sentence boundaries', () => {
    const sentence = (i: number) => `Sentence number ${i} explains one more detail about the long policy text here.`;
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const passages = chunkDocument({ id: 'long', title: 'Long', text });
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) {
      expect(words(p.text).length).toBeLessThanOrEqual(120);
      expect(words(p.text).length).toBeGreaterThanOrEqual(20);
      expect(p.text.endsWith('.')).toBe(true);
    }
    expect(passages.map((p) => p.text).join(' ')).toBe(text);
    expect(new Set(passages.map((p) => p.id)).size).toBe(passages.length);
  });

  it('answers the knowledge-assistant template with citations to the right article', async () => {
    const rt = newRuntime();
    const agent = agentFor(rt, 'v2', KNOWLEDGE_ASSISTANT_TEMPLATE.bundle);
    const r = await rt.run(agent, turn('How many devices can I sync on the Free plan?'));
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]!.document_id).toBe('sync-devices');
    expect(r.text).toContain('The Free plan syncs across two devices [1].');
    const offline = await rt.run(agent, turn('Does the app work offline?'));
    expect(v2Trace(offline.trace).citations_used[0]!.document_id).toBe('offline-mode');
  });
});

describe('v2 retrieval terms', () => {
  it('finds words whose stem is a stop word after stemming ("notes")', async () => {
    const runtime = newRuntime();
    const agent = agentFor(runtime, 'v2', {
      knowledge: [
        { id: 'a', title: 'Pinning', text: 'Pinned notes stay at the top of the notebook list until you unpin them.' },
        { id: 'b', title: 'Billing', text: 'Invoices are emailed on the first day of each month.' },
      ],
    });
    const r = await runtime.run(agent, turn('Tell me about notes'));
    expect((r.trace as { citations_used: Array<{ document_id: string }> }).citations_used[0]!.document_id).toBe('a');
  });
});

describe('v2 understanding of everyday words and threads', () => {
  const runtime = newRuntime();
  const agent = agentFor(runtime, 'v2', {
    knowledge: [
      {
        id: 'ebike-hire',
        title: 'Electric bicycle hire',
        text: 'We hire pedal-assist electric bicycles by the half day, full day or week. Riders must be 16 or over. A full day costs £45.',
      },
      {
        id: 'returns',
        title: 'Returns and refunds',
        text: 'You can return an unridden bicycle within 30 days of purchase for a full refund. Refunds reach your card within 5 working days.',
      },
      {
        id: 'warranty',
        title: 'Warranty',
        text: 'Frames are covered against manufacturing defects for the lifetime of the original owner. Chains and tyres wear out and are not covered.',
      },
      {
        id: 'whitening',
        title: 'Teeth whitening',
        text: 'Professional whitening lightens the natural colour of your tooth enamel by several shades with a gel worn in custom trays.',
      },
    ],
  });

  it('reaches the page\'s words from the customer\'s ("e-bikes" → electric bicycles, "whiter" → whitening)', async () => {
    for (const [question, page] of [
      ['Do you rent e-bikes?', 'ebike-hire'],
      ['do you hire ebikes', 'ebike-hire'],
      ['can you make my teeth whiter', 'whitening'],
    ] as const) {
      const t = v2Trace((await runtime.run(agent, turn(question))).trace);
      expect(t.citations_used[0]?.document_id).toBe(page);
    }
  });

  it("reads a follow-up with a pronoun in the thread's subject, and a follow-up of a follow-up too", async () => {
    const history = [
      { role: 'user' as const, text: 'Do you rent e-bikes?' },
      { role: 'agent' as const, text: 'We hire pedal-assist electric bicycles [1].' },
    ];
    const price = await runtime.run(agent, turn('how much is it for a whole day?', { history }));
    expect(v2Trace(price.trace).citations_used[0]?.document_id).toBe('ebike-hire');
    const age = await runtime.run(
      agent,
      turn('is there an age limit?', {
        history: [
          ...history,
          { role: 'user', text: 'how much is it for a whole day?' },
          { role: 'agent', text: 'A full day costs £45 [1].' },
        ],
      }),
    );
    expect(v2Trace(age.trace).citations_used[0]?.document_id).toBe('ebike-hire');
  });

  it('keeps a new subject in a thread: a question that names its own subject is not pulled back', async () => {
    const history = [
      { role: 'user' as const, text: 'Do you rent e-bikes?' },
      { role: 'agent' as const, text: 'We hire pedal-assist electric bicycles [1].' },
    ];
    const r = await runtime.run(agent, turn('Is my cracked frame covered by the warranty?', { history }));
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]?.document_id).toBe('warranty');
    expect(t.understanding.context_keywords).toEqual([]);
  });

  it('cites the page that answers and not the pages that only share a word with the question', async () => {
    const t = v2Trace((await runtime.run(agent, turn('how long until my refund reaches my card?'))).trace);
    expect(t.citations_used.map((c) => c.document_id)).toEqual(['returns']);
  });

  it('declines when only a side word matches ("electric" of electric scooters) and names the nearest topics', async () => {
    const r = await runtime.run(agent, turn('Do you repair electric scooters?'));
    const t = v2Trace(r.trace);
    expect(t.citations_used).toEqual([]);
    expect(r.text).toMatch(/^I could not find this in the knowledge base\. The nearest topics I have are /);
  });
});

describe('v2 follow-ups stay on the page of the thread', () => {
  const runtime = newRuntime();
  const library: Bundle = {
    knowledge: [
      {
        id: 'joining',
        title: 'Joining the library',
        text: 'Anyone who lives, works or studies in the county can join. Bring a photo identification and a proof of address to any branch and we give you a card at once.',
      },
      {
        id: 'fines',
        title: 'Overdue charges',
        text: 'There is a charge of 20p a day for overdue books. The charge stops at £5 per item. Children are never charged.',
      },
    ],
  };
  const agent = agentFor(runtime, 'v2', library);
  const thread = (question: string) =>
    turn(question, {
      history: [
        { role: 'user', text: 'how do I join the library?' },
        { role: 'agent', text: 'Anyone who lives, works or studies in the county can join [1].' },
      ],
    });

  it("a follow-up whose words another page matches too is answered from the thread's page", async () => {
    const t = v2Trace((await runtime.run(agent, thread('is there a charge?'))).trace);
    expect(t.citations_used[0]?.document_id).toBe('joining');
  });

  it("answers a follow-up the same whether the thread's previous turn ran in this process or not (memoised page)", async () => {
    const cold = newRuntime();
    const coldAgent = agentFor(cold, 'v2', library);
    await runtime.run(agent, turn('how do I join the library?'));
    for (const question of ['is there a charge?', 'what ID do I need?']) {
      const warm = v2Trace((await runtime.run(agent, thread(question))).trace).citations_used;
      expect(v2Trace((await cold.run(coldAgent, thread(question))).trace).citations_used).toEqual(warm);
    }
  });

  it('a follow-up made only of function words ("what ID do I need?": "id" reads as "I\'d") asks about the thread\'s subject', async () => {
    const r = await runtime.run(agent, thread('what ID do I need?'));
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]?.document_id).toBe('joining');
    expect(t.understanding.context_keywords.length).toBeGreaterThan(0);
    // Outside a thread the same words ask about nothing and are declined.
    expect(v2Trace((await runtime.run(agent, turn('what ID do I need?'))).trace).citations_used).toEqual([]);
  });
});
