import { EventBus } from '../../src/common/bus/event-bus.js';
import type { LiveRevisionChange } from '../../src/common/bus/event-map.js';
import type { TestOrg } from '../factories/factory.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const OTHER_ID = '0123456789abcdef01234567';

describe('agents (management)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  const agentsOf = (projectId: string) => `/management/v1/projects/${projectId}/agents`;

  async function createAgent(org: TestOrg, projectId: string, body: Record<string, unknown> = { name: 'Store assistant' }) {
    const res = await t.http.post(agentsOf(projectId), body, org.headers);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function publishNew(org: TestOrg, agentId: string, body: Record<string, unknown> = { source: 'empty' }) {
    const version = await t.http.post(`/management/v1/agents/${agentId}/versions`, body, org.headers);
    expect(version.status).toBe(201);
    const published = await t.http.post(`/management/v1/agents/${agentId}/versions/${version.body.id}/publish`, undefined, org.headers);
    expect(published.status).toBe(200);
    return published.body;
  }

  describe('POST /projects/:projectId/agents', () => {
    it('creates an agent without a live version (201) that reads back', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const res = await t.http.post(
        agentsOf(project.id),
        { name: 'Store assistant', description: 'Helps shoppers', runtime: 'v2' },
        org.headers,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        project_id: project.id,
        name: 'Store assistant',
        description: 'Helps shoppers',
        runtime: 'v2',
        live_version_id: null,
        live_version_tag: null,
        publish_requires_passing_evaluation: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const read = await t.http.get(`/management/v1/agents/${res.body.id}`, org.headers);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it('defaults runtime to v1 and description to null', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id, { name: 'a' });
      expect(agent).toMatchObject({ runtime: 'v1', description: null });
    });

    it('answers 401 without credentials', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const res = await t.http.post(agentsOf(project.id), { name: 'x' });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it("answers 404 for another organization's project and for a deleted project", async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.project(other);
      const res = await t.http.post(agentsOf(theirs.id), { name: 'x' }, org.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      const mine = await t.factory.project(org);
      expect((await t.http.delete(`/management/v1/projects/${mine.id}`, org.headers)).status).toBe(204);
      expect((await t.http.post(agentsOf(mine.id), { name: 'x' }, org.headers)).status).toBe(404);
      expect((await t.http.get(agentsOf(theirs.id), other.headers)).body.results).toHaveLength(0);
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'ok', runtime: 'v3' }, 'runtime'],
      [{ name: 'ok', description: 5 }, 'description'],
      [{ name: 'ok', live_version_id: OTHER_ID }, 'live_version_id'],
    ])('answers 422 for %j naming %s and creates nothing', async (body, field) => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const res = await t.http.post(agentsOf(project.id), body, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await t.http.get(agentsOf(project.id), org.headers)).body.results).toHaveLength(0);
    });

    it('answers 422 naming projectId for a malformed project id', async () => {
      const org = await t.factory.org();
      const res = await t.http.post(agentsOf('nope'), { name: 'x' }, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'projectId', message: expect.any(String) }]);
    });
  });

  describe('GET /projects/:projectId/agents', () => {
    it("lists the project's agents newest first, filters by name case-insensitively and paginates", async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const otherProject = await t.factory.project(org);
      const names = ['Support Bot', 'sales helper', 'SUPPORT escalation', 'Returns 100%'];
      for (const name of names) await createAgent(org, project.id, { name });
      await createAgent(org, otherProject.id, { name: 'support elsewhere' });

      const all = await t.http.get(agentsOf(project.id), org.headers);
      expect(all.status).toBe(200);
      expect(all.body.results.map((a: { name: string }) => a.name)).toEqual([...names].reverse());
      expect(all.body.meta.has_more).toBe(false);

      const filtered = await t.http.get(`${agentsOf(project.id)}?filters[name]=SUPPORT`, org.headers);
      expect(filtered.body.results.map((a: { name: string }) => a.name).sort()).toEqual(['SUPPORT escalation', 'Support Bot']);
      const literal = await t.http.get(`${agentsOf(project.id)}?${new URLSearchParams({ 'filters[name]': '0%' })}`, org.headers);
      expect(literal.body.results.map((a: { name: string }) => a.name)).toEqual(['Returns 100%']);

      const byName = await t.http.get(`${agentsOf(project.id)}?sort_by=name&sort_order=asc&page[size]=2`, org.headers);
      expect(byName.body.results.map((a: { name: string }) => a.name)).toEqual(['Returns 100%', 'SUPPORT escalation']);
      expect(byName.body.meta.has_more).toBe(true);
      const next = await t.http.get(byName.body.links.next, org.headers);
      expect(next.body.results.map((a: { name: string }) => a.name)).toEqual(['Support Bot', 'sales helper']);
      expect(next.body.links.next).toBeNull();
    });

    it('answers 401 without credentials', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      expect((await t.http.get(agentsOf(project.id))).status).toBe(401);
    });

    it("answers 404 for another organization's project", async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.project(other);
      await t.factory.agent(other, { project: theirs });
      const res = await t.http.get(agentsOf(theirs.id), org.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    });

    it.each([
      ['page[size]=0', 'page[size]'],
      ['page[size]=101', 'page[size]'],
      ['sort_by=runtime', 'sort_by'],
      ['sort_order=up', 'sort_order'],
      ['filters[bogus]=1', 'filters[bogus]'],
    ])('answers 422 for %s', async (query, field) => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const res = await t.http.get(`${agentsOf(project.id)}?${query}`, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });
  });

  describe('GET /agents/:agentId', () => {
    it('shows the live version id and tag after a publish', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id);
      const version = await publishNew(org, agent.id);
      const res = await t.http.get(`/management/v1/agents/${agent.id}`, org.headers);
      expect(res.body).toMatchObject({ live_version_id: version.id, live_version_tag: 'v1.0' });
    });

    it('answers 401, 404 across organizations and for unknown ids, 422 for malformed ids', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.agent(other);
      expect((await t.http.get(`/management/v1/agents/${theirs.id}`)).status).toBe(401);
      const cross = await t.http.get(`/management/v1/agents/${theirs.id}`, org.headers);
      expect(cross.status).toBe(404);
      expect(cross.body.error.code).toBe('not_found');
      expect((await t.http.get(`/management/v1/agents/${OTHER_ID}`, org.headers)).status).toBe(404);
      const malformed = await t.http.get('/management/v1/agents/xyz', org.headers);
      expect(malformed.status).toBe(422);
      expect(malformed.body.error.details[0].field).toBe('agentId');
    });

    it('reads an agent built by factory.agentWithLiveVersion like one built through the API', async () => {
      const org = await t.factory.org();
      const { agent, versionId } = await t.factory.agentWithLiveVersion(org, { bundle: { name: 'Seeded', welcome_message: 'hi' } });
      expect(await t.http.get(`/management/v1/agents/${agent.id}`, org.headers).then((r) => r.body)).toMatchObject({
        live_version_id: versionId,
        live_version_tag: 'v1.0',
      });
      const pulled = await t.http.get(`/management/v1/agents/${agent.id}/versions/${versionId}/pull`, org.headers);
      expect(pulled.body).toMatchObject({ version_tag: 'v1.0', bundle: { name: 'Seeded', welcome_message: 'hi' } });
      expect(
        (await t.http.post(`/management/v1/agents/${agent.id}/versions/${versionId}/archive`, undefined, org.headers)).body.error.code,
      ).toBe('version_is_live');
    });

    it('answers 404 for an agent of a deleted project', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id);
      await t.http.delete(`/management/v1/projects/${project.id}`, org.headers);
      expect((await t.http.get(`/management/v1/agents/${agent.id}`, org.headers)).status).toBe(404);
    });
  });

  describe('PATCH /agents/:agentId', () => {
    it('renames an agent without a live version and changes its description', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id, { name: 'Old', description: 'd' });
      const res = await t.http.patch(`/management/v1/agents/${agent.id}`, { name: 'New name', description: null }, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: agent.id, name: 'New name', description: null, live_version_id: null });
      expect((await t.http.get(`/management/v1/agents/${agent.id}`, org.headers)).body.name).toBe('New name');
    });

    it('re-publishes the live revision with the new name as a new live revision of the same version', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id, { name: 'Shop' });
      const version = await publishNew(org, agent.id, { source: 'template', template: 'shopping-assistant' });
      const changes: LiveRevisionChange[] = [];
      const stop = t.app.get(EventBus).on('agent.live_changed', (c) => changes.push(c));
      try {
        const res = await t.http.patch(`/management/v1/agents/${agent.id}`, { name: 'Trail Shop' }, org.headers);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ name: 'Trail Shop', live_version_id: version.id, live_version_tag: 'v1.1' });
      } finally {
        stop();
      }
      expect(changes).toEqual([
        expect.objectContaining({ agentId: agent.id, versionId: version.id, versionTag: 'v1.1', reason: 'rename' }),
      ]);

      const pulled = await t.http.get(`/management/v1/agents/${agent.id}/versions/${version.id}/pull`, org.headers);
      expect(pulled.body).toMatchObject({ version_tag: 'v1.1', bundle: { name: 'Trail Shop' } });
      const before = await t.http.get(`/management/v1/agents/${agent.id}/versions/${version.id}/pull?version_tag=v1.0`, org.headers);
      expect(before.body.bundle.name).toBe('Shop');
      expect({ ...pulled.body.bundle, name: 'Shop' }).toEqual(before.body.bundle);

      const items = await t.http.get(`/management/v1/agents/${agent.id}/versions`, org.headers);
      expect(
        items.body.results
          .filter((v: { is_live: boolean }) => v.is_live)
          .map((v: { version_tag: string; is_revision: boolean }) => [v.version_tag, v.is_revision]),
      ).toEqual(
        expect.arrayContaining([
          ['v1.1', true],
          ['v1.1', false],
        ]),
      );

      // Same name again: nothing to re-publish.
      const same = await t.http.patch(`/management/v1/agents/${agent.id}`, { name: 'Trail Shop' }, org.headers);
      expect(same.body.live_version_tag).toBe('v1.1');
    });

    it('re-publishes the live revision, not a newer unpublished push', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id, { name: 'A' });
      const version = await publishNew(org, agent.id);
      const push = await t.http.post(
        `/management/v1/agents/${agent.id}/versions/${version.id}/push`,
        { bundle: { name: 'A', welcome_message: 'draft' } },
        org.headers,
      );
      expect(push.body.version_tag).toBe('v1.1');
      const res = await t.http.patch(`/management/v1/agents/${agent.id}`, { name: 'B' }, org.headers);
      expect(res.body.live_version_tag).toBe('v1.2');
      const live = await t.http.get(`/management/v1/agents/${agent.id}/versions/${version.id}/pull?version_tag=v1.2`, org.headers);
      expect(live.body.bundle).toEqual({ schema_version: 1, name: 'B' });
    });

    it('answers 401, 404 across organizations and 422 for invalid names', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.agent(other, { name: 'theirs' });
      expect((await t.http.patch(`/management/v1/agents/${theirs.id}`, { name: 'x' })).status).toBe(401);
      expect((await t.http.patch(`/management/v1/agents/${theirs.id}`, { name: 'x' }, org.headers)).status).toBe(404);
      const mine = await t.factory.agent(org, { name: 'mine' });
      for (const body of [{ name: '' }, { name: null }, { name: 'y'.repeat(101) }, { runtime: 'v2' }]) {
        const res = await t.http.patch(`/management/v1/agents/${mine.id}`, body, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details[0].field).toBe(Object.keys(body)[0]);
      }
      expect((await t.http.get(`/management/v1/agents/${mine.id}`, org.headers)).body.name).toBe('mine');
      expect((await t.http.get(`/management/v1/agents/${theirs.id}`, other.headers)).body.name).toBe('theirs');
    });
  });

  describe('DELETE /agents/:agentId', () => {
    it('answers 204 with no body and removes the agent, its versions and its keys', async () => {
      const org = await t.factory.org();
      const project = await t.factory.project(org);
      const agent = await createAgent(org, project.id);
      const version = await publishNew(org, agent.id);
      const pk = await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers);
      const changes: LiveRevisionChange[] = [];
      const stop = t.app.get(EventBus).on('agent.live_changed', (c) => changes.push(c));
      const res = await t.http.delete(`/management/v1/agents/${agent.id}`, org.headers);
      stop();
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(changes).toEqual([expect.objectContaining({ agentId: agent.id, versionId: null, reason: 'agent_deleted' })]);

      expect((await t.http.get(`/management/v1/agents/${agent.id}`, org.headers)).status).toBe(404);
      expect((await t.http.get(agentsOf(project.id), org.headers)).body.results).toHaveLength(0);
      expect((await t.http.get(`/management/v1/agents/${agent.id}/versions`, org.headers)).status).toBe(404);
      expect((await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org.headers)).status).toBe(
        404,
      );
      expect((await t.http.delete(`/management/v1/agents/${agent.id}`, org.headers)).status).toBe(404);

      const [{ versions, revisions, keys, rows }] = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM agent_versions WHERE agent_id = $1) AS versions,
                (SELECT count(*)::int FROM agent_revisions WHERE agent_id = $1) AS revisions,
                (SELECT count(*)::int FROM publishable_keys WHERE agent_id = $1) AS keys,
                (SELECT count(*)::int FROM agents WHERE id = $1 AND deleted_at IS NOT NULL) AS rows`,
        [agent.id],
      );
      expect({ versions, revisions, keys, rows }).toEqual({ versions: 0, revisions: 0, keys: 0, rows: 1 });
      const exchange = await t.http.post('/management/v1/auth/token', {
        grant_type: 'publishable_key',
        publishable_key: pk.body.publishable_key,
      });
      expect(exchange.status).toBe(400);
    });

    it('answers 401 and 404 across organizations, leaving the agent in place', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.agent(other);
      expect((await t.http.delete(`/management/v1/agents/${theirs.id}`)).status).toBe(401);
      const res = await t.http.delete(`/management/v1/agents/${theirs.id}`, org.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await t.http.get(`/management/v1/agents/${theirs.id}`, other.headers)).status).toBe(200);
      expect((await t.http.delete('/management/v1/agents/123', org.headers)).status).toBe(422);
    });
  });

  it('documents every agent route in the OpenAPI document', async () => {
    const doc = await t.http.get('/openapi.json');
    expect(doc.body.paths['/management/v1/projects/{projectId}/agents']).toHaveProperty('post');
    expect(doc.body.paths['/management/v1/projects/{projectId}/agents']).toHaveProperty('get');
    expect(Object.keys(doc.body.paths['/management/v1/agents/{agentId}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(doc.body.components.schemas.AgentResponseDto.properties).toHaveProperty('live_version_tag');
  });
});
