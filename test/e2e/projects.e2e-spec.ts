import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('projects', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  const create = (headers: Record<string, string>, name: string) => t.http.post('/management/v1/projects', { name }, headers);

  it('creates a project (201) and reads it back', async () => {
    const org = await t.factory.org();
    const res = await create(org.headers, 'Storefront');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Storefront',
      thread_retention_days: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await t.http.get(`/management/v1/projects/${res.body.id}`, org.headers);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('validates the name: 2..100 characters, string, required, no unknown fields', async () => {
    const org = await t.factory.org();
    for (const [body, field] of [
      [{ name: 'a' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{}, 'name'],
      [{ name: 'ok', extra: 1 }, 'extra'],
    ] as const) {
      const res = await t.http.post('/management/v1/projects', body, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await t.http.get('/management/v1/projects', org.headers)).body.results).toHaveLength(0);
    expect((await create(org.headers, 'ab')).status).toBe(201);
    expect((await create(org.headers, 'x'.repeat(100))).status).toBe(201);
  });

  it('requires credentials', async () => {
    expect((await t.http.get('/management/v1/projects')).status).toBe(401);
    expect((await t.http.post('/management/v1/projects', { name: 'abc' })).status).toBe(401);
  });

  it("answers 404 for another organization's project on get and delete", async () => {
    const org = await t.factory.org();
    const other = await t.factory.org();
    const project = await t.factory.project(other);
    const get = await t.http.get(`/management/v1/projects/${project.id}`, org.headers);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('not_found');
    expect((await t.http.delete(`/management/v1/projects/${project.id}`, org.headers)).status).toBe(404);
    expect((await t.http.get(`/management/v1/projects/${project.id}`, other.headers)).status).toBe(200);
    expect((await t.http.get('/management/v1/projects', org.headers)).body.results).toHaveLength(0);
  });

  it('deletes a project: 204, then 404 and gone from listings at once', async () => {
    const org = await t.factory.org();
    const project = (await create(org.headers, 'Doomed')).body;
    const del = await t.http.delete(`/management/v1/projects/${project.id}`, org.headers);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.http.get(`/management/v1/projects/${project.id}`, org.headers)).status).toBe(404);
    expect((await t.http.get('/management/v1/projects', org.headers)).body.results).toHaveLength(0);
    expect((await t.http.delete(`/management/v1/projects/${project.id}`, org.headers)).status).toBe(404);
  });

  it('deletes a project: its agents stop on every surface at once and management no longer shows them', async () => {
    const org = await t.factory.org();
    const live = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const projectId = (await t.http.get(`/management/v1/agents/${live.agentId}`, org.headers)).body.project_id as string;
    const pk = expectStatus(
      await t.http.post(`/management/v1/agents/${live.agentId}/publishable-keys`, {}, org.headers),
      201,
      'publishable key',
    ).body;
    const ak = expectStatus(await t.http.post(`/management/v1/agents/${live.agentId}/api-keys`, {}, org.headers), 201, 'api key').body;
    const user = await t.factory.user(org);
    const session = expectStatus(
      await t.http.post('/management/v1/auth/token', {
        grant_type: 'password',
        username: user.email,
        password: user.password,
        agent_id: live.agentId,
      }),
      200,
      'login',
    ).body.access_token as string;
    expect((await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, live.headers)).status).toBe(200);
    expect(
      (await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${session}` })).status,
    ).toBe(200);
    expect((await t.http.post('/messaging/v1/events', { text: 'hi' }, { 'x-agent-api-key': ak.api_key })).status).toBe(202);

    expect((await t.http.delete(`/management/v1/projects/${projectId}`, org.headers)).status).toBe(204);
    const exchange = await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: pk.publishable_key });
    expect(exchange.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
    for (const res of [
      await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, live.headers),
      await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${session}` }),
      await t.http.post('/messaging/v1/events', { text: 'hi' }, { 'x-agent-api-key': ak.api_key }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    expect((await t.http.get(`/management/v1/agents/${live.agentId}`, org.headers)).status).toBe(404);
    const [agentRow] = await t.dataSource.query(`SELECT deleted_at FROM agents WHERE id = $1`, [live.agentId]);
    expect(agentRow.deleted_at).not.toBeNull();
  });

  describe('pagination', () => {
    it('walks pages with links that repeat the query, without duplicates or gaps', async () => {
      const org = await t.factory.org();
      const names = Array.from({ length: 7 }, (_, i) => `project-${i}`);
      for (const name of names) await create(org.headers, name);
      const seen: string[] = [];
      let path: string | null = '/management/v1/projects?page%5Bsize%5D=3&sort_by=name&sort_order=asc';
      const sizes: number[] = [];
      while (path) {
        const page: any = await t.http.get(path, org.headers);
        expect(page.status).toBe(200);
        sizes.push(page.body.results.length);
        seen.push(...page.body.results.map((p: { name: string }) => p.name));
        if (page.body.links.next) expect(page.body.links.next).toContain('sort_by=name');
        path = page.body.meta.has_more ? page.body.links.next : null;
      }
      expect(sizes).toEqual([3, 3, 1]);
      expect(seen).toEqual(names);
    });

    it('pages backwards with page[before]', async () => {
      const org = await t.factory.org();
      for (let i = 0; i < 5; i += 1) await create(org.headers, `p${i}`);
      const first = await t.http.get('/management/v1/projects?page[size]=2&sort_by=name&sort_order=asc', org.headers);
      expect(first.body.links.prev).toBeNull();
      const second = await t.http.get(first.body.links.next, org.headers);
      expect(second.body.results.map((p: any) => p.name)).toEqual(['p2', 'p3']);
      const back = await t.http.get(second.body.links.prev, org.headers);
      expect(back.body.results.map((p: any) => p.name)).toEqual(['p0', 'p1']);
      expect(back.body.meta.has_more).toBe(false);
      expect(back.body.links.prev).toBeNull();
    });

    it('stays stable while rows are inserted concurrently (newest first)', async () => {
      const org = await t.factory.org();
      for (let i = 0; i < 6; i += 1) await create(org.headers, `old-${i}`);
      const first = await t.http.get('/management/v1/projects?page[size]=2', org.headers);
      const seen = first.body.results.map((p: any) => p.name);
      let next = first.body.links.next;
      let inserted = 0;
      while (next) {
        await create(org.headers, `new-${inserted++}`);
        const page = await t.http.get(next, org.headers);
        seen.push(...page.body.results.map((p: any) => p.name));
        next = page.body.meta.has_more ? page.body.links.next : null;
      }
      expect(seen).toEqual(['old-5', 'old-4', 'old-3', 'old-2', 'old-1', 'old-0']);
    });

    it('defaults to 50 per page and validates page[size], sort_by, sort_order and cursors', async () => {
      const org = await t.factory.org();
      for (let i = 0; i < 51; i += 1) await t.factory.project(org, `bulk-${i}`);
      const page = await t.http.get('/management/v1/projects', org.headers);
      expect(page.body.results).toHaveLength(50);
      expect(page.body.meta).toEqual({ has_more: true, after_cursor: expect.any(String), before_cursor: expect.any(String) });
      for (const [query, field] of [
        ['page[size]=0', 'page[size]'],
        ['page[size]=101', 'page[size]'],
        ['page[size]=abc', 'page[size]'],
        ['sort_by=owner', 'sort_by'],
        ['sort_order=up', 'sort_order'],
        ['page[after]=garbage', 'page[after]'],
      ]) {
        const res = await t.http.get(`/management/v1/projects?${query}`, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details[0].field).toBe(field);
      }
      const mismatched = await t.http.get(`/management/v1/projects?sort_by=name&page[after]=${page.body.meta.after_cursor}`, org.headers);
      expect(mismatched.status).toBe(422);
      expect(mismatched.body.error.details[0].field).toBe('page[after]');
    });
  });
});
