import { createHash } from 'node:crypto';
import type { TestOrg } from '../factories/factory.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const UNKNOWN_ID = '0123456789abcdef01234567';
const field = (res: { body: { error: { details?: Array<{ field: string }> } } }) => (res.body.error.details ?? []).map((d) => d.field);

describe('agent versions (management)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  const base = (agentId: string) => `/management/v1/agents/${agentId}/versions`;

  async function setup(name = 'Trail Shop') {
    const org = await t.factory.org();
    const project = await t.factory.project(org);
    const agent = (await t.http.post(`/management/v1/projects/${project.id}/agents`, { name }, org.headers)).body as { id: string };
    return { org, agent };
  }

  async function createVersion(org: TestOrg, agentId: string, body: Record<string, unknown> = { source: 'empty' }) {
    const res = await t.http.post(base(agentId), body, org.headers);
    expect(res.status).toBe(201);
    return res.body;
  }

  const publish = (org: TestOrg, agentId: string, versionId: string) =>
    t.http.post(`${base(agentId)}/${versionId}/publish`, undefined, org.headers);
  const archive = (org: TestOrg, agentId: string, versionId: string) =>
    t.http.post(`${base(agentId)}/${versionId}/archive`, undefined, org.headers);
  const push = (org: TestOrg, agentId: string, versionId: string, bundle: unknown, message?: string) =>
    t.http.post(`${base(agentId)}/${versionId}/push`, message === undefined ? { bundle } : { bundle, message }, org.headers);
  const pull = (org: TestOrg, agentId: string, versionId: string, tag?: string) =>
    t.http.get(`${base(agentId)}/${versionId}/pull${tag ? `?version_tag=${tag}` : ''}`, org.headers);
  const getAgent = async (org: TestOrg, agentId: string) => (await t.http.get(`/management/v1/agents/${agentId}`, org.headers)).body;
  const getVersion = async (org: TestOrg, agentId: string, versionId: string) =>
    (await t.http.get(`${base(agentId)}/${versionId}`, org.headers)).body;

  describe('state: (none) → create version → draft', () => {
    it('creates an empty draft v1.0 with metadata, numbered per agent', async () => {
      const { org, agent } = await setup();
      const res = await t.http.post(base(agent.id), { source: 'empty', label: 'First', tags: ['a', 'b', 'a'], notes: 'n' }, org.headers);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        agent_id: agent.id,
        number: 1,
        version_tag: 'v1.0',
        status: 'draft',
        is_live: false,
        is_revision: false,
        base_version_id: null,
        label: 'First',
        tags: ['a', 'b'],
        notes: 'n',
        digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        message: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await createVersion(org, agent.id);
      expect(second).toMatchObject({ number: 2, version_tag: 'v2.0', label: null, tags: [], notes: null });
      const other = await setup();
      expect((await createVersion(other.org, other.agent.id)).number).toBe(1);
      const pulled = await pull(org, agent.id, res.body.id);
      expect(pulled.body.bundle).toEqual({ schema_version: 1, name: 'Trail Shop' });
      expect(await getAgent(org, agent.id)).toMatchObject({ live_version_id: null, live_version_tag: null });
    });

    it('creates a draft from a template with the agent name', async () => {
      const { org, agent } = await setup('Northpeak helper');
      const version = await createVersion(org, agent.id, { source: 'template', template: 'shopping-assistant' });
      const pulled = await pull(org, agent.id, version.id);
      expect(pulled.body.bundle.name).toBe('Northpeak helper');
      expect(pulled.body.bundle.tools[0].type).toBe('catalog_search');
      expect(pulled.body.bundle.collections.products.length).toBeGreaterThanOrEqual(20);
    });

    it('clones the current bundle of another version of the agent', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await push(org, agent.id, v1.id, { name: 'Trail Shop', welcome_message: 'cloned' });
      const v2 = await createVersion(org, agent.id, { source: 'clone', from_version_id: v1.id, label: 'copy' });
      expect(v2).toMatchObject({ number: 2, version_tag: 'v2.0', status: 'draft', label: 'copy' });
      expect((await pull(org, agent.id, v2.id)).body.bundle).toEqual({ name: 'Trail Shop', welcome_message: 'cloned' });
      expect(v2.digest).toBe((await getVersion(org, agent.id, v1.id)).digest);
    });

    it('refuses to clone a stored bundle whose pattern the RE2 engine cannot run (stored before patterns were RE2), naming the pattern', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await push(org, agent.id, v1.id, { name: 'Trail Shop', guardrails: [{ code: 'g', patterns: ['ok'], message: 'no' }] });
      await t.dataSource.query(
        `UPDATE agent_revisions SET bundle = jsonb_set(bundle, '{guardrails,0,patterns,0}', to_jsonb($2::text)) WHERE version_id = $1`,
        [v1.id, '(a)\\1'],
      );
      const res = await t.http.post(base(agent.id), { source: 'clone', from_version_id: v1.id }, org.headers);
      expect(res.status).toBe(422);
      expect(field(res)).toEqual(['bundle.guardrails[0].patterns[0]']);
      expect(await t.dataSource.query(`SELECT number FROM agent_versions WHERE agent_id = $1`, [agent.id])).toEqual([{ number: 1 }]);
    });

    it.each([
      [{}, 'source'],
      [{ source: 'copy' }, 'source'],
      [{ source: 'template' }, 'template'],
      [{ source: 'template', template: 'no-such-template' }, 'template'],
      [{ source: 'clone' }, 'from_version_id'],
      [{ source: 'clone', from_version_id: 'zz' }, 'from_version_id'],
      [{ source: 'clone', from_version_id: UNKNOWN_ID }, 'from_version_id'],
      [{ source: 'empty', tags: 'x' }, 'tags'],
      [{ source: 'empty', tags: [''] }, 'tags'],
      [{ source: 'empty', label: 'x'.repeat(101) }, 'label'],
      [{ source: 'empty', status: 'published' }, 'status'],
    ])('answers 422 for %j naming %s and creates nothing', async (body, name) => {
      const { org, agent } = await setup();
      const res = await t.http.post(base(agent.id), body, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(field(res)).toContain(name);
      expect((await t.http.get(base(agent.id), org.headers)).body.results).toHaveLength(0);
    });

    it("refuses to clone another agent's version (422) and answers 401 / 404 across organizations", async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const theirs = await createVersion(other.org, other.agent.id);
      const clone = await t.http.post(base(agent.id), { source: 'clone', from_version_id: theirs.id }, org.headers);
      expect(clone.status).toBe(422);
      expect(field(clone)).toEqual(['from_version_id']);
      expect((await t.http.post(base(agent.id), { source: 'empty' })).status).toBe(401);
      const cross = await t.http.post(base(other.agent.id), { source: 'empty' }, org.headers);
      expect(cross.status).toBe(404);
      expect(cross.body.error.code).toBe('not_found');
      expect((await t.http.post(base('bad'), { source: 'empty' }, org.headers)).body.error.details[0].field).toBe('agentId');
    });
  });

  describe('state: draft → publish → published and live', () => {
    it('makes the draft live, freezing its current revision (agent without live version → has one)', async () => {
      const { org, agent } = await setup();
      const version = await createVersion(org, agent.id);
      await push(org, agent.id, version.id, { name: 'Trail Shop', welcome_message: 'Hello' });
      const res = await publish(org, agent.id, version.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: version.id, status: 'published', is_live: true, version_tag: 'v1.1' });
      expect(await getAgent(org, agent.id)).toMatchObject({ live_version_id: version.id, live_version_tag: 'v1.1' });

      // A later push commits a revision that is not live until published again.
      const next = await push(org, agent.id, version.id, { name: 'Trail Shop', welcome_message: 'Hello again' });
      expect(next.body.version_tag).toBe('v1.2');
      expect(await getAgent(org, agent.id)).toMatchObject({ live_version_id: version.id, live_version_tag: 'v1.1' });
      expect(await getVersion(org, agent.id, version.id)).toMatchObject({ status: 'published', is_live: true, version_tag: 'v1.2' });
      expect((await publish(org, agent.id, version.id)).body.version_tag).toBe('v1.2');
      expect((await getAgent(org, agent.id)).live_version_tag).toBe('v1.2');
    });

    it('answers 401, 404 across organizations / for unknown or foreign versions, 422 for malformed ids', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const theirs = await createVersion(other.org, other.agent.id);
      const mine = await createVersion(org, agent.id);
      expect((await t.http.post(`${base(agent.id)}/${mine.id}/publish`)).status).toBe(401);
      expect((await publish(org, other.agent.id, theirs.id)).status).toBe(404);
      expect((await publish(org, agent.id, theirs.id)).status).toBe(404);
      expect((await publish(org, agent.id, UNKNOWN_ID)).body.error.code).toBe('not_found');
      const malformed = await publish(org, agent.id, 'nope');
      expect(malformed.status).toBe(422);
      expect(field(malformed)).toEqual(['versionId']);
      expect((await getAgent(other.org, other.agent.id)).live_version_id).toBeNull();
    });
  });

  describe('state: published (not live) → publish → published and live (rollback)', () => {
    it('re-activates an older version; the previously live one stays published but not live', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      const v2 = await createVersion(org, agent.id);
      await publish(org, agent.id, v1.id);
      await publish(org, agent.id, v2.id);
      expect(await getVersion(org, agent.id, v1.id)).toMatchObject({ status: 'published', is_live: false });
      const rollback = await publish(org, agent.id, v1.id);
      expect(rollback.status).toBe(200);
      expect(rollback.body).toMatchObject({ id: v1.id, is_live: true, status: 'published' });
      expect(await getVersion(org, agent.id, v2.id)).toMatchObject({ status: 'published', is_live: false });
      expect(await getAgent(org, agent.id)).toMatchObject({ live_version_id: v1.id, live_version_tag: 'v1.0' });
    });
  });

  describe('state: any non-live version → archive → archived', () => {
    it('archives a draft and a published version that is not live', async () => {
      const { org, agent } = await setup();
      const draft = await createVersion(org, agent.id);
      const old = await createVersion(org, agent.id);
      const live = await createVersion(org, agent.id);
      await publish(org, agent.id, old.id);
      await publish(org, agent.id, live.id);
      const a = await archive(org, agent.id, draft.id);
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ id: draft.id, status: 'archived', is_live: false });
      expect((await archive(org, agent.id, old.id)).body.status).toBe('archived');
      expect((await getVersion(org, agent.id, old.id)).status).toBe('archived');
      expect((await archive(org, agent.id, old.id)).status).toBe(200);
    });

    it('answers 401 and 404 across organizations', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const theirs = await createVersion(other.org, other.agent.id);
      expect((await t.http.post(`${base(other.agent.id)}/${theirs.id}/archive`)).status).toBe(401);
      expect((await archive(org, other.agent.id, theirs.id)).status).toBe(404);
      expect((await getVersion(other.org, other.agent.id, theirs.id)).status).toBe('draft');
      expect(field(await archive(org, agent.id, 'x'))).toEqual(['versionId']);
    });
  });

  describe('state: live version → archive → rejected', () => {
    it('answers 409 version_is_live and leaves it unchanged; after publishing another it can be archived', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await publish(org, agent.id, v1.id);
      const res = await archive(org, agent.id, v1.id);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('version_is_live');
      expect(await getVersion(org, agent.id, v1.id)).toMatchObject({ status: 'published', is_live: true });
      const v2 = await createVersion(org, agent.id);
      await publish(org, agent.id, v2.id);
      expect((await archive(org, agent.id, v1.id)).body.status).toBe('archived');
    });
  });

  describe('archived versions', () => {
    it('answer 409 version_archived to publish and push, and keep their content', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await archive(org, agent.id, v1.id);
      const pub = await publish(org, agent.id, v1.id);
      expect(pub.status).toBe(409);
      expect(pub.body.error.code).toBe('version_archived');
      expect((await getAgent(org, agent.id)).live_version_id).toBeNull();
      const pushed = await push(org, agent.id, v1.id, { name: 'changed' });
      expect(pushed.status).toBe(409);
      expect(pushed.body.error.code).toBe('version_archived');
      expect((await pull(org, agent.id, v1.id)).body).toMatchObject({ version_tag: 'v1.0', bundle: { name: 'Trail Shop' } });
      // Metadata still changes through update; clones still work.
      expect((await t.http.patch(`${base(agent.id)}/${v1.id}`, { label: 'retired' }, org.headers)).body.label).toBe('retired');
      expect((await createVersion(org, agent.id, { source: 'clone', from_version_id: v1.id })).number).toBe(2);
    });
  });

  describe('state: any version → push → same state, new revision', () => {
    it('commits vN.R with a sha256 digest of the canonical JSON; an identical bundle commits nothing', async () => {
      const { org, agent } = await setup();
      await createVersion(org, agent.id);
      const v2 = await createVersion(org, agent.id);
      const bundle = { welcome_message: 'Hi', name: 'Trail Shop', model: { temperature: 0.2, provider: 'builtin' } };
      const res = await push(org, agent.id, v2.id, bundle, 'first change');
      expect(res.status).toBe(200);
      const canonical = '{"model":{"provider":"builtin","temperature":0.2},"name":"Trail Shop","welcome_message":"Hi"}';
      expect(res.body).toEqual({
        version_id: v2.id,
        revision_id: expect.stringMatching(/^[0-9a-f]{24}$/),
        version_tag: 'v2.1',
        digest: `sha256:${createHash('sha256').update(canonical).digest('hex')}`,
        created_at: expect.any(String),
      });
      const same = await push(org, agent.id, v2.id, {
        name: 'Trail Shop',
        model: { provider: 'builtin', temperature: 0.2 },
        welcome_message: 'Hi',
      });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(res.body);
      const second = await push(org, agent.id, v2.id, { ...bundle, welcome_message: 'Hello' });
      expect(second.body.version_tag).toBe('v2.2');
      expect(await getVersion(org, agent.id, v2.id)).toMatchObject({ status: 'draft', version_tag: 'v2.2', digest: second.body.digest });

      const revisions = (await t.http.get(`${base(agent.id)}?filters[number]=2`, org.headers)).body.results;
      expect(revisions.map((r: { version_tag: string; is_revision: boolean }) => `${r.version_tag}:${r.is_revision}`)).toEqual([
        'v2.2:true',
        'v2.1:true',
        'v2.2:false',
      ]);
      expect(revisions.find((r: { version_tag: string }) => r.version_tag === 'v2.1')).toMatchObject({
        base_version_id: v2.id,
        message: 'first change',
        is_live: false,
      });
    });

    it('keeps a published live version live on its frozen revision', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await publish(org, agent.id, v1.id);
      const res = await push(org, agent.id, v1.id, { name: 'Trail Shop', persona: 'new' });
      expect(res.body.version_tag).toBe('v1.1');
      expect(await getVersion(org, agent.id, v1.id)).toMatchObject({ status: 'published', is_live: true });
      expect((await getAgent(org, agent.id)).live_version_tag).toBe('v1.0');
    });

    it('answers 422 with details pointing into the bundle and commits nothing', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      const bad = {
        name: 'x',
        rules: [
          { code: 'ok', when: { param: 'budget', op: '<', value: 10 }, action: 'block', message: 'too low' },
          { code: 'bad', when: { param: 'budget', op: 'between', value: 10 }, action: 'block', message: 'm' },
        ],
        knowledge: [
          { id: 'a', title: 'A', text: 'x' },
          { id: 'b', title: 'B', text: 'y' },
          { id: 'c', title: 'C' },
        ],
        guardrails: [{ code: 'g', patterns: ['(unclosed'], message: 'no' }],
      };
      const res = await push(org, agent.id, v1.id, bad);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(field(res)).toEqual(expect.arrayContaining(['bundle.rules[1].when.op', 'bundle.knowledge[2].text']));
      const regex = await push(org, agent.id, v1.id, {
        guardrails: [{ code: 'g', patterns: ['ok', '(unclosed'], message: 'no' }],
        parameters: [{ code: 'budget', title: 'Budget', type: 'number', pattern: '[0-' }],
      });
      expect(regex.status).toBe(422);
      expect(field(regex)).toEqual(expect.arrayContaining(['bundle.guardrails[0].patterns[1]', 'bundle.parameters[0].pattern']));
      for (const [body, name] of [
        [{}, 'bundle'],
        [{ bundle: [] }, 'bundle'],
        [{ bundle: 'x' }, 'bundle'],
        [{ bundle: {}, message: 5 }, 'message'],
        [{ bundle: {}, extra: 1 }, 'extra'],
      ] as const) {
        const r = await t.http.post(`${base(agent.id)}/${v1.id}/push`, body, org.headers);
        expect(r.status).toBe(422);
        expect(field(r)).toContain(name);
      }
      expect((await getVersion(org, agent.id, v1.id)).version_tag).toBe('v1.0');
    });

    it('answers 401 and 404 across organizations without committing', async () => {
      const { org } = await setup();
      const other = await setup();
      const theirs = await createVersion(other.org, other.agent.id);
      expect((await t.http.post(`${base(other.agent.id)}/${theirs.id}/push`, { bundle: { name: 'x' } })).status).toBe(401);
      const res = await push(org, other.agent.id, theirs.id, { name: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await getVersion(other.org, other.agent.id, theirs.id)).version_tag).toBe('v1.0');
    });
  });

  describe('rename (PATCH agent name) with an unpublished push on the live version', () => {
    /** The digest the service computes: sha256 of the JSON with keys sorted (flat bundles here). */
    const digestOf = (bundle: Record<string, unknown>) =>
      `sha256:${createHash('sha256')
        .update(JSON.stringify(Object.fromEntries(Object.entries(bundle).sort(([a], [b]) => (a < b ? -1 : 1)))))
        .digest('hex')}`;
    const rename = (org: TestOrg, agentId: string, name: string) => t.http.patch(`/management/v1/agents/${agentId}`, { name }, org.headers);

    it('shows the new name live at once and keeps the push: the next publish ships v1.1 content with the new name', async () => {
      const { org, agent } = await setup('Trail Shop');
      const v1 = await createVersion(org, agent.id);
      expect((await publish(org, agent.id, v1.id)).status).toBe(200);
      const draft = { schema_version: 1, name: 'Trail Shop', welcome_message: 'Unpublished welcome' };
      const pushed = await push(org, agent.id, v1.id, draft, 'v1.1 content');
      expect(pushed.body).toMatchObject({ version_tag: 'v1.1', digest: digestOf(draft) });

      const renamed = await rename(org, agent.id, 'Ridge Shop');
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Ridge Shop', live_version_id: v1.id, live_version_tag: 'v1.2' });

      // Live right away: the live content (v1.0) under the new name.
      const liveBundle = { schema_version: 1, name: 'Ridge Shop' };
      const live = await pull(org, agent.id, v1.id, 'v1.2');
      expect(live.body.bundle).toEqual(liveBundle);
      // The version's current revision: the unpublished content (v1.1) under the new name, not live yet.
      const nextBundle = { ...draft, name: 'Ridge Shop' };
      const current = await pull(org, agent.id, v1.id);
      expect(current.body).toMatchObject({ version_tag: 'v1.3', bundle: nextBundle });
      expect(await getVersion(org, agent.id, v1.id)).toMatchObject({
        version_tag: 'v1.3',
        digest: digestOf(nextBundle),
        status: 'published',
        is_live: true,
      });
      const items = (await t.http.get(`${base(agent.id)}?filters[number]=1`, org.headers)).body.results;
      expect(
        items.map((v: { version_tag: string; is_revision: boolean; is_live: boolean; digest: string }) => [
          v.version_tag,
          v.is_revision,
          v.is_live,
          v.digest,
        ]),
      ).toEqual([
        ['v1.3', true, false, digestOf(nextBundle)],
        ['v1.2', true, true, digestOf(liveBundle)],
        ['v1.1', true, false, digestOf(draft)],
        ['v1.3', false, true, digestOf(nextBundle)],
      ]);
      // Earlier tags are untouched.
      expect((await pull(org, agent.id, v1.id, 'v1.1')).body.bundle).toEqual(draft);
      expect((await pull(org, agent.id, v1.id, 'v1.0')).body.bundle).toEqual({ schema_version: 1, name: 'Trail Shop' });

      const published = await publish(org, agent.id, v1.id);
      expect(published.body).toMatchObject({ version_tag: 'v1.3', digest: digestOf(nextBundle), is_live: true });
      expect(await getAgent(org, agent.id)).toMatchObject({ name: 'Ridge Shop', live_version_id: v1.id, live_version_tag: 'v1.3' });
    });

    it('renames twice and with a push that already carries the new name, never losing the unpublished content', async () => {
      const { org, agent } = await setup('Trail Shop');
      const v1 = await createVersion(org, agent.id);
      await publish(org, agent.id, v1.id);
      const draft = { schema_version: 1, name: 'Ridge Shop', persona: 'friendly' };
      await push(org, agent.id, v1.id, draft);

      // The push already says "Ridge Shop": only the live revision needs renaming; the push is re-committed on top, unchanged.
      expect((await rename(org, agent.id, 'Ridge Shop')).body.live_version_tag).toBe('v1.2');
      expect((await pull(org, agent.id, v1.id)).body).toMatchObject({ version_tag: 'v1.3', bundle: draft });

      expect((await rename(org, agent.id, 'Summit Shop')).body.live_version_tag).toBe('v1.4');
      expect((await pull(org, agent.id, v1.id, 'v1.4')).body.bundle).toEqual({ schema_version: 1, name: 'Summit Shop' });
      expect((await pull(org, agent.id, v1.id)).body).toMatchObject({ version_tag: 'v1.5', bundle: { ...draft, name: 'Summit Shop' } });

      // Renaming back and forth without a push in between commits one live revision each time, and nothing else.
      await publish(org, agent.id, v1.id);
      expect((await rename(org, agent.id, 'Trail Shop')).body.live_version_tag).toBe('v1.6');
      expect((await pull(org, agent.id, v1.id)).body).toMatchObject({ version_tag: 'v1.6', bundle: { ...draft, name: 'Trail Shop' } });
    });
  });

  describe('pull', () => {
    it('returns the current bundle or the one of a revision tag, with expires_at and return_type', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      await push(org, agent.id, v1.id, { name: 'Trail Shop', welcome_message: 'one' });
      await push(org, agent.id, v1.id, { name: 'Trail Shop', welcome_message: 'two' });
      const before = Date.now();
      const current = await pull(org, agent.id, v1.id);
      expect(current.status).toBe(200);
      expect(current.body).toEqual({
        agent_id: agent.id,
        version_id: v1.id,
        version_tag: 'v1.2',
        bundle: { name: 'Trail Shop', welcome_message: 'two' },
        expires_at: expect.any(String),
        return_type: 'bundle',
      });
      const after = Date.now();
      // expires_at = the moment the service answered + the TTL: between the request's start and end, each + the TTL.
      const expiresAt = Date.parse(current.body.expires_at);
      expect(expiresAt).toBeGreaterThanOrEqual(before + t.config.bundleCacheTtlSeconds * 1000 - 1000);
      expect(expiresAt).toBeLessThanOrEqual(after + t.config.bundleCacheTtlSeconds * 1000);
      expect((await pull(org, agent.id, v1.id, 'v1.1')).body).toMatchObject({ version_tag: 'v1.1', bundle: { welcome_message: 'one' } });
      expect((await pull(org, agent.id, v1.id, 'v1.0')).body.bundle).toEqual({ schema_version: 1, name: 'Trail Shop' });
    });

    it('answers 404 for an unknown tag or a tag of another version, 422 for a malformed tag, 401 and 404 across organizations', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const v1 = await createVersion(org, agent.id);
      await createVersion(org, agent.id);
      const unknown = await pull(org, agent.id, v1.id, 'v1.9');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
      expect((await pull(org, agent.id, v1.id, 'v2.0')).status).toBe(404);
      const malformed = await pull(org, agent.id, v1.id, 'latest');
      expect(malformed.status).toBe(422);
      expect(field(malformed)).toEqual(['version_tag']);
      expect((await t.http.get(`${base(agent.id)}/${v1.id}/pull`)).status).toBe(401);
      expect((await pull(other.org, agent.id, v1.id)).status).toBe(404);
    });
  });

  describe('PATCH metadata', () => {
    it('updates label, tags and notes (null clears) and leaves the configuration alone', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id, { source: 'empty', label: 'L', notes: 'N', tags: ['x'] });
      const res = await t.http.patch(`${base(agent.id)}/${v1.id}`, { label: 'Black Friday', tags: ['promo', 'q4'] }, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        label: 'Black Friday',
        tags: ['promo', 'q4'],
        notes: 'N',
        version_tag: 'v1.0',
        digest: v1.digest,
        status: 'draft',
      });
      const cleared = await t.http.patch(`${base(agent.id)}/${v1.id}`, { label: null, notes: null, tags: [] }, org.headers);
      expect(cleared.body).toMatchObject({ label: null, notes: null, tags: [] });
      expect(await getVersion(org, agent.id, v1.id)).toMatchObject({ label: null, notes: null, tags: [] });
    });

    it('answers 422 for invalid fields or configuration changes, 401, 404 across organizations', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const v1 = await createVersion(org, agent.id);
      for (const [body, name] of [
        [{ tags: [1] }, 'tags'],
        [{ notes: 'x'.repeat(5001) }, 'notes'],
        [{ bundle: {} }, 'bundle'],
        [{ status: 'published' }, 'status'],
      ] as const) {
        const res = await t.http.patch(`${base(agent.id)}/${v1.id}`, body, org.headers);
        expect(res.status).toBe(422);
        expect(field(res)).toContain(name);
      }
      expect((await t.http.patch(`${base(agent.id)}/${v1.id}`, { label: 'x' })).status).toBe(401);
      expect((await t.http.patch(`${base(agent.id)}/${v1.id}`, { label: 'x' }, other.org.headers)).status).toBe(404);
      expect((await getVersion(org, agent.id, v1.id)).label).toBeNull();
    });
  });

  describe('GET list', () => {
    async function history() {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id, { source: 'empty', label: 'Launch', tags: ['stable'] });
      await push(org, agent.id, v1.id, { name: 'Trail Shop', welcome_message: '1' });
      await publish(org, agent.id, v1.id);
      const v2 = await createVersion(org, agent.id, {
        source: 'clone',
        from_version_id: v1.id,
        label: 'Winter campaign',
        tags: ['experiment'],
      });
      await push(org, agent.id, v2.id, { name: 'Trail Shop', welcome_message: '2' });
      await push(org, agent.id, v2.id, { name: 'Trail Shop', welcome_message: '3' });
      const v3 = await createVersion(org, agent.id);
      await archive(org, agent.id, v3.id);
      return { org, agent, v1, v2, v3 };
    }
    const tags = (res: { body: { results: Array<{ version_tag: string; is_revision: boolean }> } }) =>
      res.body.results.map((r) => `${r.version_tag}${r.is_revision ? '' : '*'}`);

    it('lists versions and revisions newest first', async () => {
      const { org, agent, v1 } = await history();
      const res = await t.http.get(base(agent.id), org.headers);
      expect(res.status).toBe(200);
      expect(tags(res)).toEqual(['v3.0*', 'v2.2', 'v2.1', 'v2.2*', 'v1.1', 'v1.1*']);
      expect(res.body.results.filter((r: { is_live: boolean }) => r.is_live).map((r: { id: string }) => r.id)).toHaveLength(2);
      expect(
        res.body.results.find((r: { version_tag: string; is_revision: boolean }) => r.version_tag === 'v1.1' && r.is_revision),
      ).toMatchObject({ is_live: true, base_version_id: v1.id });
      expect(res.body.meta).toMatchObject({ has_more: false });
    });

    it.each([
      ['filters[exclude_revisions]=true', ['v3.0*', 'v2.2*', 'v1.1*']],
      ['filters[status]=archived', ['v3.0*']],
      ['filters[status]=published&filters[exclude_revisions]=true', ['v1.1*']],
      ['filters[tag]=experiment', ['v2.2', 'v2.1', 'v2.2*']],
      ['filters[version_tag]=v2.1', ['v2.1']],
      ['filters[label]=WINTER', ['v2.2', 'v2.1', 'v2.2*']],
      ['filters[number]=1', ['v1.1', 'v1.1*']],
      ['filters[exclude_revisions]=false&filters[number]=3', ['v3.0*']],
      ['sort_order=asc&filters[exclude_revisions]=true', ['v1.1*', 'v2.2*', 'v3.0*']],
      ['sort_by=number&sort_order=asc&filters[exclude_revisions]=true', ['v1.1*', 'v2.2*', 'v3.0*']],
    ])('filters with %s', async (query, expected) => {
      const { org, agent } = await history();
      const res = await t.http.get(`${base(agent.id)}?${query}`, org.headers);
      expect(res.status).toBe(200);
      expect(tags(res)).toEqual(expected);
    });

    it('paginates with cursors in both directions, repeating the filters in links', async () => {
      const { org, agent } = await history();
      const first = await t.http.get(`${base(agent.id)}?page[size]=4`, org.headers);
      expect(tags(first)).toEqual(['v3.0*', 'v2.2', 'v2.1', 'v2.2*']);
      expect(first.body.meta.has_more).toBe(true);
      const second = await t.http.get(first.body.links.next, org.headers);
      expect(tags(second)).toEqual(['v1.1', 'v1.1*']);
      expect(second.body.links.next).toBeNull();
      const back = await t.http.get(second.body.links.prev, org.headers);
      expect(tags(back)).toEqual(['v3.0*', 'v2.2', 'v2.1', 'v2.2*']);
      const filtered = await t.http.get(`${base(agent.id)}?filters[exclude_revisions]=true&page[size]=1`, org.headers);
      expect(filtered.body.links.next).toContain('filters%5Bexclude_revisions%5D=true');
      expect(tags(await t.http.get(filtered.body.links.next, org.headers))).toEqual(['v2.2*']);
    });

    it.each([
      ['filters[status]=live', 'filters[status]'],
      ['filters[number]=abc', 'filters[number]'],
      ['filters[number]=0', 'filters[number]'],
      ['filters[exclude_revisions]=maybe', 'filters[exclude_revisions]'],
      ['filters[version_tag]=3.2', 'filters[version_tag]'],
      ['filters[unknown]=1', 'filters[unknown]'],
      ['sort_by=label', 'sort_by'],
      ['page[size]=500', 'page[size]'],
      ['page[after]=garbage', 'page[after]'],
    ])('answers 422 for %s', async (query, name) => {
      const { org, agent } = await setup();
      const res = await t.http.get(`${base(agent.id)}?${query}`, org.headers);
      expect(res.status).toBe(422);
      expect(field(res)).toContain(name);
    });

    it('answers 401 and 404 across organizations', async () => {
      const { org } = await setup();
      const other = await setup();
      await createVersion(other.org, other.agent.id);
      expect((await t.http.get(base(other.agent.id))).status).toBe(401);
      const res = await t.http.get(base(other.agent.id), org.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    });
  });

  describe('GET one version', () => {
    it('answers 200, 401, 404 across organizations and for unknown ids', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const v1 = await createVersion(org, agent.id);
      expect((await t.http.get(`${base(agent.id)}/${v1.id}`, org.headers)).body).toEqual(v1);
      expect((await t.http.get(`${base(agent.id)}/${v1.id}`)).status).toBe(401);
      expect((await t.http.get(`${base(agent.id)}/${v1.id}`, other.org.headers)).status).toBe(404);
      expect((await t.http.get(`${base(agent.id)}/${UNKNOWN_ID}`, org.headers)).status).toBe(404);
    });
  });

  describe('concurrency (real concurrent requests)', () => {
    it('two publishes at once leave exactly one live version', async () => {
      const { org, agent } = await setup();
      const versions = [];
      for (let i = 0; i < 4; i += 1) versions.push(await createVersion(org, agent.id));
      const results = await Promise.all(versions.map((v) => publish(org, agent.id, v.id)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const list = await t.http.get(`${base(agent.id)}?filters[exclude_revisions]=true`, org.headers);
      const live = list.body.results.filter((v: { is_live: boolean }) => v.is_live);
      expect(live).toHaveLength(1);
      const current = await getAgent(org, agent.id);
      expect(current.live_version_id).toBe(live[0].id);
      expect(list.body.results.every((v: { status: string }) => v.status === 'published')).toBe(true);
    });

    it('concurrent pushes get distinct tags and lose no revision', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => push(org, agent.id, v1.id, { name: 'Trail Shop', welcome_message: `m${i}` })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const pushedTags = results.map((r) => r.body.version_tag).sort();
      expect(pushedTags).toEqual(['v1.1', 'v1.2', 'v1.3', 'v1.4', 'v1.5', 'v1.6']);
      const messages = await Promise.all(
        results.map(async (r) => (await pull(org, agent.id, v1.id, r.body.version_tag)).body.bundle.welcome_message),
      );
      expect(messages.sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
      expect((await t.http.get(`${base(agent.id)}?filters[number]=1`, org.headers)).body.results).toHaveLength(7);
    });

    it('concurrent publishes, pushes, renames and archives of one agent neither deadlock nor fail', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      const v2 = await createVersion(org, agent.id);
      const v3 = await createVersion(org, agent.id);
      await publish(org, agent.id, v1.id);
      const requests = [];
      for (let i = 0; i < 4; i += 1) {
        requests.push(push(org, agent.id, v1.id, { name: 'Trail Shop', persona: `p${i}` }));
        requests.push(publish(org, agent.id, i % 2 ? v1.id : v2.id));
        requests.push(push(org, agent.id, v2.id, { name: 'Trail Shop', persona: `q${i}` }));
        requests.push(t.http.patch(`/management/v1/agents/${agent.id}`, { name: `Trail Shop ${i}` }, org.headers));
        requests.push(t.http.patch(`${base(agent.id)}/${v3.id}`, { notes: `n${i}` }, org.headers));
      }
      requests.push(archive(org, agent.id, v3.id));
      const results = await Promise.all(requests);
      expect(results.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
      expect((await getVersion(org, agent.id, v3.id)).status).toBe('archived');
      const live = (await t.http.get(`${base(agent.id)}?filters[exclude_revisions]=true`, org.headers)).body.results.filter(
        (v: { is_live: boolean }) => v.is_live,
      );
      expect(live).toHaveLength(1);
      const current = await getAgent(org, agent.id);
      const pulled = await pull(org, agent.id, current.live_version_id, current.live_version_tag);
      expect(pulled.status).toBe(200);
    });

    it('concurrent version creates get distinct numbers', async () => {
      const { org, agent } = await setup();
      const results = await Promise.all(Array.from({ length: 4 }, () => t.http.post(base(agent.id), { source: 'empty' }, org.headers)));
      expect(results.map((r) => r.body.number).sort()).toEqual([1, 2, 3, 4]);
    });
  });

  describe('bundle schema and templates', () => {
    it('serves the bundle JSON Schema', async () => {
      const { org } = await setup();
      const res = await t.http.get('/management/v1/bundle-schema', org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ $schema: expect.stringContaining('json-schema.org'), type: 'object' });
      expect(Object.keys(res.body.properties)).toEqual(
        expect.arrayContaining(['name', 'rules', 'knowledge', 'tools', 'collections', 'guardrails', 'followups', 'model']),
      );
      expect((await t.http.get('/management/v1/bundle-schema')).status).toBe(401);
    });

    it('lists templates and shows one with its bundle', async () => {
      const { org } = await setup();
      const res = await t.http.get('/management/v1/templates', org.headers);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([
        { id: 'blank', name: expect.any(String), description: expect.any(String), runtime: 'v1' },
        { id: 'shopping-assistant', name: expect.any(String), description: expect.any(String), runtime: 'v1' },
        { id: 'knowledge-assistant', name: expect.any(String), description: expect.any(String), runtime: 'v2' },
      ]);
      const one = await t.http.get('/management/v1/templates/knowledge-assistant', org.headers);
      expect(one.body.bundle.knowledge.length).toBeGreaterThanOrEqual(8);
      expect((await t.http.get('/management/v1/templates/nope', org.headers)).status).toBe(404);
      expect((await t.http.get('/management/v1/templates/NOT_AN_ID', org.headers)).status).toBe(422);
      expect((await t.http.get('/management/v1/templates')).status).toBe(401);
    });

    it('accepts every template bundle on push', async () => {
      const { org, agent } = await setup();
      const v1 = await createVersion(org, agent.id);
      for (const id of ['blank', 'shopping-assistant', 'knowledge-assistant']) {
        const template = await t.http.get(`/management/v1/templates/${id}`, org.headers);
        expect((await push(org, agent.id, v1.id, template.body.bundle)).status).toBe(200);
      }
    });
  });

  it('documents every version route in the OpenAPI document', async () => {
    const doc = await t.http.get('/openapi.json');
    const paths = doc.body.paths;
    expect(Object.keys(paths['/management/v1/agents/{agentId}/versions'])).toEqual(expect.arrayContaining(['get', 'post']));
    for (const action of ['publish', 'archive', 'push']) {
      expect(paths[`/management/v1/agents/{agentId}/versions/{versionId}/${action}`]).toHaveProperty('post');
    }
    expect(paths['/management/v1/agents/{agentId}/versions/{versionId}/pull']).toHaveProperty('get');
    expect(paths['/management/v1/agents/{agentId}/versions/{versionId}']).toHaveProperty('patch');
    expect(paths['/management/v1/bundle-schema']).toHaveProperty('get');
    expect(paths['/management/v1/templates']).toHaveProperty('get');
    expect(paths['/management/v1/agents/{agentId}/versions/{versionId}/publish'].post.responses).toHaveProperty('409');
    expect(doc.body.components.schemas.VersionResponseDto.properties).toHaveProperty('is_revision');
  });
});
