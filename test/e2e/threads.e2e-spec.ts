import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { insertInteraction, insertThread, type ThreadOwner } from '../support/threads.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const LIST = '/management/v1/threads';
const SEND = '/messaging/v1/messages';
const ids = (res: { body: { results: Array<{ id: string }> } }) => res.body.results.map((r) => r.id);
const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000);

describe('threads (management read side)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('list filters over a fixed set of threads', () => {
    let org: TestOrg;
    let other: TestOrg;
    let a1: ThreadOwner;
    let a2: ThreadOwner;
    let a3: ThreadOwner;
    let b1: ThreadOwner;
    const th: Record<string, string> = {};

    beforeAll(async () => {
      await t.reset();
      org = await t.factory.org();
      other = await t.factory.org();
      const p1 = await t.factory.project(org);
      const p2 = await t.factory.project(org);
      const owner = async (o: TestOrg, project: { id: string }, runtime: 'v1' | 'v2'): Promise<ThreadOwner> => {
        const agent = await t.factory.agent(o, { project: project as never, runtime });
        return { organizationId: o.id, projectId: project.id, agentId: agent.id };
      };
      a1 = await owner(org, p1, 'v1');
      a2 = await owner(org, p2, 'v1');
      a3 = await owner(org, p1, 'v2');
      b1 = await owner(other, await t.factory.project(other), 'v1');
      th.t1 = await insertThread(t, a1, {
        userId: 'u1',
        tools: ['catalog'],
        rules: ['over_budget', 'over_budget:fired', 'over_budget:blocked'],
        params: { budget: 30, color: 'blue' },
        createdAt: at(1),
      });
      th.t2 = await insertThread(t, a1, {
        userId: 'u2',
        externalId: 'ext-2',
        tools: ['catalog', 'sizes'],
        rules: ['over_budget', 'over_budget:passed'],
        params: { budget: 120, size: 42 },
        createdAt: at(2),
      });
      th.t3 = await insertThread(t, a2, {
        userId: 'u1',
        tools: ['faq'],
        rules: ['vip', 'vip:fired'],
        params: { budget: '75', tier: 'gold' },
        createdAt: at(3),
      });
      th.t4 = await insertThread(t, a2, { userId: 'u3', params: { flag: true }, createdAt: at(4) });
      th.t5 = await insertThread(t, a3, { userId: 'u1', runtime: 'v2', tools: ['search'], params: { budget: 10 }, createdAt: at(5) });
      th.t6 = await insertThread(t, a1, {
        userId: 'u3',
        tools: ['sizes'],
        rules: ['over_budget', 'over_budget:passed'],
        params: { budget: 50 },
        createdAt: at(6),
      });
      th.b = await insertThread(t, b1, {
        userId: 'u1',
        tools: ['catalog'],
        rules: ['over_budget'],
        params: { budget: 30 },
        createdAt: at(7),
      });
    });

    const list = async (query: string, headers: Record<string, string> = org.headers) =>
      t.http.get(`${LIST}${query ? `?${query}` : ''}`, headers);
    const expectIds = async (query: string, names: string[]) => {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(names.map((n) => th[n]));
    };

    it("lists the organization's runtime-v1 threads newest first, with the list item fields", async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([th.t6, th.t4, th.t3, th.t2, th.t1]);
      expect(res.body.results[3]).toEqual({
        id: th.t2,
        title: expect.any(String),
        created_at: at(2).toISOString(),
        version_tag: 'v1.0',
        agent_id: a1.agentId,
        user_id: 'u2',
        external_id: 'ext-2',
        control: 'agent',
        assignee: null,
      });
      expect(res.body.meta).toEqual({ has_more: false, after_cursor: expect.any(String), before_cursor: expect.any(String) });
      expect(res.body.links).toEqual({ next: null, prev: null });
    });

    it('sorts oldest first on request', () => expectIds('sort_order=asc', ['t1', 't2', 't3', 't4', 't6']));

    it.each([
      ['project_id', () => `project_id=${a1.projectId}`, ['t6', 't2', 't1']],
      ['project_id (upper-case hex)', () => `project_id=${a2.projectId.toUpperCase()}`, ['t4', 't3']],
      ['user_id', () => 'user_id=u1', ['t3', 't1']],
      ['external_id', () => 'external_id=ext-2', ['t2']],
      ['created (one value: from)', () => `created=${encodeURIComponent(at(2).toISOString())}`, ['t6', 't4', 't3', 't2']],
      ['created (two values: inclusive range)', () => `created=${at(2).toISOString()}&created=${at(4).toISOString()}`, ['t4', 't3', 't2']],
      ['created (offset time zone)', () => `created=${encodeURIComponent('2026-01-01T05:30:00+02:00')}`, ['t6', 't4']],
      ['tool', () => 'tool=catalog', ['t2', 't1']],
      ['tool repeated (OR)', () => 'tool=faq&tool=sizes', ['t6', 't3', 't2']],
      ['rule code (evaluated)', () => 'rule=over_budget', ['t6', 't2', 't1']],
      ['rule code:fired', () => 'rule=over_budget:fired', ['t1']],
      ['rule code:blocked', () => 'rule=over_budget:blocked', ['t1']],
      ['rule code:passed', () => 'rule=over_budget:passed', ['t6', 't2']],
      ['rule repeated (OR)', () => 'rule=vip:fired&rule=over_budget:blocked', ['t3', 't1']],
      ['param key:value (number)', () => 'param=budget:30', ['t1']],
      ['param key:value (string)', () => 'param=color:blue', ['t1']],
      ['param key:value (numeric string value)', () => 'param=budget:75', ['t3']],
      ['param key:value (boolean)', () => 'param=flag:true', ['t4']],
      ['param key:*', () => `param=${encodeURIComponent('size:*')}`, ['t2']],
      ['param key>=n', () => `param=${encodeURIComponent('budget>=50')}`, ['t6', 't2']],
      ['param key>n', () => `param=${encodeURIComponent('budget>50')}`, ['t2']],
      ['param key<n', () => `param=${encodeURIComponent('budget<50')}`, ['t1']],
      ['param key<=n (decimal)', () => `param=${encodeURIComponent('budget<=50.0')}`, ['t6', 't1']],
      ['param repeated (OR)', () => `param=tier:gold&param=${encodeURIComponent('size:*')}`, ['t3', 't2']],
      ['agent_id', () => `agent_id=${a2.agentId}`, ['t4', 't3']],
      ['agent_id repeated (OR)', () => `agent_id=${a1.agentId}&agent_id=${a2.agentId}`, ['t6', 't4', 't3', 't2', 't1']],
      ['runtime_version=2 with agent_id', () => `runtime_version=2&agent_id=${a3.agentId}`, ['t5']],
      ['runtime_version dotted with user_id', () => 'runtime_version=2.1.0&user_id=u1', ['t5']],
      ['runtime_version=1 (the default)', () => 'runtime_version=1&user_id=u1', ['t3', 't1']],
    ])('filters by %s', async (_name, query, expected) => {
      await expectIds(query(), expected);
    });

    it.each([
      ['tool + rule + param', () => `tool=catalog&rule=over_budget:passed&param=${encodeURIComponent('budget>=100')}`, ['t2']],
      ['agent_id + user_id + created', () => `agent_id=${a1.agentId}&user_id=u3&created=${at(3).toISOString()}`, ['t6']],
      ['project_id + tool + param', () => `project_id=${a1.projectId}&tool=sizes&param=${encodeURIComponent('budget<=60')}`, ['t6']],
      [
        'repeated fields AND-ed: (tool a OR b) AND (rule x OR y)',
        () => 'tool=catalog&tool=faq&rule=vip&rule=over_budget:fired',
        ['t3', 't1'],
      ],
      ['filters that exclude each other', () => 'tool=faq&user_id=u2', []],
    ])('combines %s with AND', async (_name, query, expected) => {
      await expectIds(query(), expected);
    });

    it("matches nothing for another organization's ids and never lists its threads", async () => {
      await expectIds(`agent_id=${b1.agentId}`, []);
      await expectIds(`project_id=${b1.projectId}`, []);
      const res = await list('user_id=u1&tool=catalog');
      expect(ids(res)).toEqual([th.t1]);
      const theirs = await list('', other.headers);
      expect(ids(theirs)).toEqual([th.b]);
    });

    it('pages with cursors forward and back; links repeat the filters', async () => {
      const first = await list('page[size]=2&tool=catalog&tool=sizes&tool=faq');
      expect(ids(first)).toEqual([th.t6, th.t3]);
      expect(first.body.meta.has_more).toBe(true);
      expect(first.body.links.prev).toBeNull();
      const next = new URL(first.body.links.next, t.baseUrl);
      expect(next.pathname).toBe(LIST);
      expect(next.searchParams.getAll('tool')).toEqual(['catalog', 'sizes', 'faq']);
      const second = await t.http.get(first.body.links.next, org.headers);
      expect(ids(second)).toEqual([th.t2, th.t1]);
      expect(second.body.meta.has_more).toBe(false);
      expect(second.body.links.next).toBeNull();
      const back = await t.http.get(second.body.links.prev, org.headers);
      expect(ids(back)).toEqual([th.t6, th.t3]);
      const viaCursor = await list(`page[size]=2&tool=catalog&tool=sizes&tool=faq&page[after]=${first.body.meta.after_cursor}`);
      expect(ids(viaCursor)).toEqual([th.t2, th.t1]);
    });

    it.each([
      ['project_id', 'project_id=xyz'],
      ['user_id', 'user_id='],
      ['created', 'created=yesterday'],
      ['created', 'created=2026-01-01'],
      ['created', `created=${at(1).toISOString()}&created=${at(2).toISOString()}&created=${at(3).toISOString()}`],
      ['created', `created=${at(4).toISOString()}&created=${at(2).toISOString()}`],
      ['tool', 'tool='],
      ['rule', 'rule=over_budget:maybe'],
      ['rule', 'rule=a:b:c'],
      ['param', 'param=budget'],
      ['param', `param=${encodeURIComponent('budget>=abc')}`],
      ['param', `param=${encodeURIComponent('budget=>5')}`],
      ['agent_id', 'agent_id=123'],
      ['agent_id', `agent_id=${'a'.repeat(24)}&agent_id=nope`],
      ['runtime_version', 'runtime_version=two'],
      ['runtime_version', 'runtime_version=2'],
      ['runtime_version', 'runtime_version=2&project_id=' + 'a'.repeat(24)],
      ['page[size]', 'page[size]=0'],
      ['page[size]', 'page[size]=101'],
      ['page[after]', 'page[after]=not-a-cursor'],
      ['sort_by', 'sort_by=title'],
      ['sort_order', 'sort_order=up'],
      ['colour', 'colour=blue'],
    ])('rejects a malformed %s with 422 naming it (%s)', async (field, query) => {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('answers 401 without or with a wrong credential', async () => {
      expect((await t.http.get(LIST)).status).toBe(401);
      const res = await t.http.get(LIST, { 'x-organization-api-key': 'oak_wrong' });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it('gets a thread with its project, runtime, counters and facets', async () => {
      const res = await t.http.get(`${LIST}/${th.t2}`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: th.t2,
        title: expect.any(String),
        created_at: at(2).toISOString(),
        version_tag: 'v1.0',
        agent_id: a1.agentId,
        user_id: 'u2',
        external_id: 'ext-2',
        project_id: a1.projectId,
        runtime: 'v1',
        interaction_count: 0,
        last_interaction_at: null,
        updated_at: expect.any(String),
        tools: ['catalog', 'sizes'],
        rules: ['over_budget', 'over_budget:passed'],
        params: { budget: 120, size: 42 },
        control: 'agent',
        assignee: null,
        handoff_reason: null,
        handoff_requested_at: null,
        handoff_accepted_at: null,
        handoff_released_at: null,
      });
    });

    it('selects the runtime on get: the other generation is 404', async () => {
      expect((await t.http.get(`${LIST}/${th.t5}`, org.headers)).status).toBe(404);
      const v2 = await t.http.get(`${LIST}/${th.t5}?runtime_version=2`, org.headers);
      expect(v2.status).toBe(200);
      expect(v2.body.runtime).toBe('v2');
      expect((await t.http.get(`${LIST}/${th.t1}?runtime_version=2`, org.headers)).status).toBe(404);
      expect((await t.http.get(`${LIST}/${th.t1}?runtime_version=x`, org.headers)).status).toBe(422);
    });

    it("answers 404 for another organization's thread or an unknown id, 422 for a malformed id", async () => {
      const theirs = await t.http.get(`${LIST}/${th.b}`, org.headers);
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect((await t.http.get(`${LIST}/${'0'.repeat(24)}`, org.headers)).status).toBe(404);
      const bad = await t.http.get(`${LIST}/nope`, org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('threadId');
      expect((await t.http.get(`${LIST}/${th.t1}`)).status).toBe(401);
    });
  });

  describe('rename', () => {
    let org: TestOrg;
    let owner: ThreadOwner;
    let threadId: string;
    beforeEach(async () => {
      await t.reset();
      org = await t.factory.org();
      const agent = await t.factory.agent(org);
      owner = { organizationId: org.id, projectId: agent.projectId, agentId: agent.id };
      threadId = await insertThread(t, owner, { title: 'Old title', createdAt: at(1) });
    });

    it('renames and returns the full thread; get and list show the new title', async () => {
      const res = await t.http.patch(`${LIST}/${threadId}`, { title: 'Trail shoes under $100' }, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: threadId,
        title: 'Trail shoes under $100',
        project_id: owner.projectId,
        runtime: 'v1',
        tools: [],
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(at(1).getTime());
      expect((await t.http.get(`${LIST}/${threadId}`, org.headers)).body.title).toBe('Trail shoes under $100');
      expect((await t.http.get(LIST, org.headers)).body.results[0].title).toBe('Trail shoes under $100');
    });

    it.each([
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ title: 42 }, 'title'],
      [{}, 'title'],
      [{ title: 'ok', extra: 1 }, 'extra'],
    ])('rejects %j with 422', async (body, field) => {
      const res = await t.http.patch(`${LIST}/${threadId}`, body, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await t.http.get(`${LIST}/${threadId}`, org.headers)).body.title).toBe('Old title');
    });

    it('accepts a 200-character title', async () => {
      const res = await t.http.patch(`${LIST}/${threadId}`, { title: 'y'.repeat(200) }, org.headers);
      expect(res.status).toBe(200);
      expect(res.body.title).toHaveLength(200);
    });

    it("is 404 for another organization's thread and for the other runtime; 401 without credentials", async () => {
      const stranger = await t.factory.org();
      expect((await t.http.patch(`${LIST}/${threadId}`, { title: 'Mine now' }, stranger.headers)).status).toBe(404);
      expect((await t.http.patch(`${LIST}/${threadId}?runtime_version=2`, { title: 'Mine now' }, org.headers)).status).toBe(404);
      expect((await t.http.patch(`${LIST}/${threadId}`, { title: 'Mine now' })).status).toBe(401);
      expect((await t.http.get(`${LIST}/${threadId}`, org.headers)).body.title).toBe('Old title');
    });
  });

  describe('real conversations: list facets and transcript', () => {
    let org: TestOrg;
    let shop: LiveTestAgent;
    beforeEach(async () => {
      await t.reset();
      org = await t.factory.org();
      shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    });

    it('lists threads created by sends, filterable by the facets the engine recorded', async () => {
      const blocked = await t.http.post(SEND, { text: 'I am looking for trail shoes under $30', user_id: 'buyer-1' }, shop.headers);
      expect(blocked.status).toBe(200);
      const search = await t.http.post(SEND, { text: 'show me jackets', user_id: 'buyer-2' }, shop.headers);
      expect(search.status).toBe(200);

      const all = await t.http.get(`${LIST}?agent_id=${shop.agentId}`, org.headers);
      expect(ids(all)).toEqual([search.body.thread_id, blocked.body.thread_id]);
      expect(all.body.results[1]).toMatchObject({
        agent_id: shop.agentId,
        user_id: 'buyer-1',
        title: 'I am looking for trail shoes under $30',
        external_id: null,
      });
      expect((await t.http.get(`${LIST}?rule=over_budget:blocked`, org.headers)).body.results.map((r: { id: string }) => r.id)).toEqual([
        blocked.body.thread_id,
      ]);
      expect(ids(await t.http.get(`${LIST}?param=${encodeURIComponent('budget<50')}`, org.headers))).toEqual([blocked.body.thread_id]);
      expect(ids(await t.http.get(`${LIST}?tool=catalog&user_id=buyer-2`, org.headers))).toEqual([search.body.thread_id]);
    });

    it('returns the transcript oldest first: user message then agent reply, per turn', async () => {
      const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'buyer-1' }, shop.headers);
      const threadId = first.body.thread_id as string;
      const second = await t.http.post(SEND, { text: 'show me jackets', user_id: 'buyer-1', thread_id: threadId }, shop.headers);
      expect(second.status).toBe(200);

      const res = await t.http.get(`${LIST}/${threadId}/messages`, org.headers);
      expect(res.status).toBe(200);
      const messages = res.body.results;
      expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'user', 'agent']);
      expect(messages.map((m: { text: string }) => m.text)).toEqual([
        'I am looking for trail shoes',
        first.body.message.text,
        'show me jackets',
        second.body.message.text,
      ]);
      expect(messages[0]).toMatchObject({ interaction_id: first.body.interaction_id, image_url: null });
      expect(messages[1]).toMatchObject({
        id: first.body.message.id,
        interaction_id: first.body.interaction_id,
        created_at: first.body.message.created_at,
        url: first.body.message.url,
        followup_suggestions: first.body.message.followup_suggestions,
        input_tokens: first.body.message.input_tokens,
        output_tokens: first.body.message.output_tokens,
      });
      expect(messages[1].cards).toEqual(first.body.message.cards);
      expect(messages[3].id).toBe(second.body.message.id);

      const thread = await t.http.get(`${LIST}/${threadId}`, org.headers);
      expect(thread.body).toMatchObject({ interaction_count: 2, last_interaction_at: second.body.message.created_at });

      // Pages of 3, both directions, and newest first on request.
      const page1 = await t.http.get(`${LIST}/${threadId}/messages?page[size]=3`, org.headers);
      expect(page1.body.results.map((m: { id: string }) => m.id)).toEqual(messages.slice(0, 3).map((m: { id: string }) => m.id));
      expect(page1.body.meta.has_more).toBe(true);
      const page2 = await t.http.get(page1.body.links.next, org.headers);
      expect(page2.body.results.map((m: { id: string }) => m.id)).toEqual([messages[3].id]);
      const back = await t.http.get(page2.body.links.prev, org.headers);
      expect(back.body.results.map((m: { id: string }) => m.id)).toEqual(messages.slice(0, 3).map((m: { id: string }) => m.id));
      const desc = await t.http.get(`${LIST}/${threadId}/messages?sort_order=desc`, org.headers);
      expect(desc.body.results.map((m: { role: string }) => m.role)).toEqual(['agent', 'user', 'agent', 'user']);
    });

    it('pages a longer transcript with small pages in both orders, each page read from the cursor on (no gaps, no repeats)', async () => {
      const first = await t.http.post(SEND, { text: 'hello', user_id: 'buyer-5' }, shop.headers);
      const threadId = first.body.thread_id as string;
      for (const text of ['trail shoes', 'jackets', 'socks', 'hats']) {
        expect((await t.http.post(SEND, { text, user_id: 'buyer-5', thread_id: threadId }, shop.headers)).status).toBe(200);
      }
      const ids = (res: { body: { results: Array<{ id: string }> } }) => res.body.results.map((m) => m.id);
      const all = ids(await t.http.get(`${LIST}/${threadId}/messages?page[size]=100`, org.headers));
      expect(all).toHaveLength(10);
      for (const order of ['asc', 'desc']) {
        const walked: string[] = [];
        let link: string | null = `${LIST}/${threadId}/messages?page[size]=3&sort_order=${order}`;
        let last;
        while (link) {
          last = await t.http.get(link, org.headers);
          walked.push(...ids(last));
          link = last.body.links.next;
        }
        expect(walked).toEqual(order === 'asc' ? all : [...all].reverse());
        const back = await t.http.get(last!.body.links.prev, org.headers);
        expect(ids(back)).toEqual(walked.slice(-4, -1));
      }
    });

    it('leaves out the user message of a turn that had no text or image (an event run on variables alone)', async () => {
      const agent = await t.factory.agent(org);
      const owner = { organizationId: org.id, projectId: agent.projectId, agentId: agent.id };
      const threadId = await insertThread(t, owner);
      await insertInteraction(t, owner, threadId, { userText: null, replyText: 'first' });
      await insertInteraction(t, owner, threadId, { userText: 'and then?', replyText: 'second' });
      const res = await t.http.get(`${LIST}/${threadId}/messages`, org.headers);
      expect(res.body.results.map((m: { role: string; text: string }) => `${m.role}:${m.text}`)).toEqual([
        'agent:first',
        'user:and then?',
        'agent:second',
      ]);
    });

    it('transcript errors: 404 across tenants and runtimes, 422 for malformed input, 401 without credentials', async () => {
      const sent = await t.http.post(SEND, { text: 'show me jackets', user_id: 'buyer-1' }, shop.headers);
      const threadId = sent.body.thread_id as string;
      const stranger = await t.factory.org();
      expect((await t.http.get(`${LIST}/${threadId}/messages`, stranger.headers)).status).toBe(404);
      expect((await t.http.get(`${LIST}/${threadId}/messages?runtime_version=2`, org.headers)).status).toBe(404);
      expect((await t.http.get(`${LIST}/${threadId}/messages?page[size]=0`, org.headers)).status).toBe(422);
      expect((await t.http.get(`${LIST}/${threadId}/messages?page[after]=abc`, org.headers)).status).toBe(422);
      const threadCursor = (await t.http.get(`${LIST}?page[size]=1&sort_order=asc`, org.headers)).body.meta.after_cursor;
      const foreign = await t.http.get(`${LIST}/${threadId}/messages?page[after]=${threadCursor}`, org.headers);
      expect(foreign.status).toBe(422);
      expect(foreign.body.error.details[0].field).toBe('page[after]');
      expect((await t.http.get(`${LIST}/bad/messages`, org.headers)).status).toBe(422);
      expect((await t.http.get(`${LIST}/${threadId}/messages`)).status).toBe(401);
    });
  });
});
