import { AuditService } from '../../src/modules/audit/audit.service.js';
import { UnitOfWork } from '../../src/database/unit-of-work.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertThread } from '../support/threads.js';

const EVENTS = '/management/v1/audit-events';
const TOKEN = '/management/v1/auth/token';

interface AuditRow {
  id: string;
  organization_id: string;
  actor_kind: string;
  actor_id: string;
  actor_user_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe('audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  /** Every record in the database, oldest first (the route is tested separately). */
  const rows = async (organizationId?: string): Promise<AuditRow[]> =>
    t.dataSource.query(
      `SELECT * FROM audit_events ${organizationId ? 'WHERE organization_id = $1' : ''} ORDER BY created_at, id`,
      organizationId ? [organizationId] : [],
    );
  const orgKeyId = async (org: TestOrg): Promise<string> =>
    ((await t.dataSource.query(`SELECT id FROM organization_api_keys WHERE organization_id = $1`, [org.id])) as Array<{ id: string }>)[0]!
      .id;
  const session = async (org: TestOrg) => {
    const user = await t.factory.user(org);
    const res = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password });
    expect(res.status).toBe(200);
    return { userId: user.id, token: res.body.access_token as string, headers: { authorization: `Bearer ${res.body.access_token}` } };
  };

  describe('recording', () => {
    it('records a write with the org key as actor and the request id', async () => {
      const org = await t.factory.org();
      const res = await t.http.request('POST', '/management/v1/projects', {
        body: { name: 'Storefront' },
        headers: { ...org.headers, 'x-request-id': 'req-audit-1' },
      });
      expect(res.status).toBe(201);
      expect(await rows()).toEqual([
        expect.objectContaining({
          organization_id: org.id,
          actor_kind: 'org_api_key',
          actor_id: await orgKeyId(org),
          actor_user_id: null,
          action: 'project.create',
          resource_type: 'project',
          resource_id: res.body.id,
          request_id: 'req-audit-1',
          before: null,
          after: { name: 'Storefront' },
        }),
      ]);
    });

    it('records the user of a login session', async () => {
      const org = await t.factory.org();
      const login = await session(org);
      const res = await t.http.post('/management/v1/projects', { name: 'By a person' }, login.headers);
      expect(res.status).toBe(201);
      const [row] = await rows();
      expect(row).toMatchObject({ actor_kind: 'session', actor_id: login.userId, actor_user_id: login.userId });
      // No x-request-id was sent: the record carries the one the service generated and answered with.
      expect(row!.request_id).toBe(res.headers.get('x-request-id'));
    });

    it('refuses to record outside a transaction, and records a system actor inside one', async () => {
      const org = await t.factory.org();
      const audit = t.app.get(AuditService);
      const entry = { action: 'thread.delete', resourceType: 'thread', resourceId: 'a'.repeat(24), before: { interactions: 3 } };
      const system = { kind: 'system' as const, organizationId: org.id, name: 'retention' };
      await expect(audit.record(system, entry)).rejects.toThrow(/UnitOfWork\.run/);
      expect(await rows()).toHaveLength(0);
      await t.app.get(UnitOfWork).run(() => audit.record(system, entry));
      expect(await rows()).toEqual([
        expect.objectContaining({ actor_kind: 'system', actor_id: 'retention', actor_user_id: null, request_id: null, after: null }),
      ]);
    });

    it('records nothing when the transaction rolls back', async () => {
      const org = await t.factory.org();
      const audit = t.app.get(AuditService);
      const failing = t.app.get(UnitOfWork).run(async () => {
        await audit.record(
          { kind: 'system', organizationId: org.id, name: 'test' },
          { action: 'project.update', resourceType: 'project', resourceId: 'x' },
        );
        throw new Error('the write failed');
      });
      await expect(failing).rejects.toThrow('the write failed');
      expect(await rows()).toHaveLength(0);
    });
  });

  describe('append-only in the database', () => {
    it('refuses UPDATE and DELETE of records, and removes them with their organization', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      expect((await t.http.post('/management/v1/projects', { name: 'One' }, org.headers)).status).toBe(201);
      expect((await t.http.post('/management/v1/projects', { name: 'Two' }, other.headers)).status).toBe(201);
      await expect(t.dataSource.query(`UPDATE audit_events SET action = 'x'`)).rejects.toThrow(/append-only: UPDATE refused/);
      await expect(t.dataSource.query(`UPDATE audit_events SET after = NULL WHERE organization_id = $1`, [org.id])).rejects.toThrow(
        /append-only/,
      );
      await expect(t.dataSource.query(`DELETE FROM audit_events WHERE organization_id = $1`, [org.id])).rejects.toThrow(
        /append-only: DELETE refused/,
      );
      expect(await rows()).toHaveLength(2);
      await t.dataSource.query(`DELETE FROM organizations WHERE id = $1`, [org.id]);
      expect(await rows(org.id)).toHaveLength(0);
      expect(await rows(other.id)).toHaveLength(1);
    });
  });

  describe('GET /management/v1/audit-events', () => {
    it('requires credentials', async () => {
      expect((await t.http.get(EVENTS)).status).toBe(401);
      expect((await t.http.get(EVENTS, { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
    });

    it("shows only the caller's organization, newest first, with the wire fields", async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const a = (await t.http.post('/management/v1/projects', { name: 'First' }, org.headers)).body;
      const b = (await t.http.post('/management/v1/projects', { name: 'Second' }, org.headers)).body;
      await t.http.post('/management/v1/projects', { name: 'Theirs' }, other.headers);
      const res = await t.http.get(EVENTS, org.headers);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: AuditRow) => r.resource_id)).toEqual([b.id, a.id]);
      expect(res.body.results[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        created_at: expect.any(String),
        actor_kind: 'org_api_key',
        actor_id: await orgKeyId(org),
        actor_user_id: null,
        action: 'project.create',
        resource_type: 'project',
        resource_id: b.id,
        request_id: expect.any(String),
        before: null,
        after: { name: 'Second' },
      });
      const theirs = await t.http.get(`${EVENTS}?resource_id=${a.id}`, other.headers);
      expect(theirs.body.results).toEqual([]);
    });

    it('filters by resource, actor, action and time range, and pages', async () => {
      const org = await t.factory.org();
      const login = await session(org);
      const ids: string[] = [];
      for (const name of ['p1', 'p2', 'p3']) ids.push((await t.http.post('/management/v1/projects', { name }, org.headers)).body.id);
      ids.push((await t.http.post('/management/v1/projects', { name: 'p4' }, login.headers)).body.id);
      const list = async (query: string) => {
        const res = await t.http.get(`${EVENTS}?${query}`, org.headers);
        expect(res.status).toBe(200);
        return res.body.results.map((r: AuditRow) => r.resource_id) as string[];
      };
      expect(await list(`resource_type=project&resource_id=${ids[1]}`)).toEqual([ids[1]]);
      expect(await list(`resource_type=agent`)).toEqual([]);
      expect(await list(`actor_id=${login.userId}`)).toEqual([ids[3]]);
      expect(await list(`actor_id=${await orgKeyId(org)}`)).toEqual([ids[2], ids[1], ids[0]]);
      expect(await list(`action=project.create`)).toHaveLength(4);
      expect(await list(`action=project.delete`)).toEqual([]);
      expect(await list(`created_from=2000-01-01T00:00:00Z&created_to=2999-01-01T00:00:00Z`)).toHaveLength(4);
      expect(await list(`created_to=2000-01-01T00:00:00Z`)).toEqual([]);
      expect(await list(`created_from=2999-01-01T00:00:00%2B02:00`)).toEqual([]);

      const first = await t.http.get(`${EVENTS}?page[size]=3`, org.headers);
      expect(first.body.results.map((r: AuditRow) => r.resource_id)).toEqual([ids[3], ids[2], ids[1]]);
      expect(first.body.meta.has_more).toBe(true);
      const second = await t.http.get(first.body.links.next, org.headers);
      expect(second.body.results.map((r: AuditRow) => r.resource_id)).toEqual([ids[0]]);
      expect(second.body.meta.has_more).toBe(false);
      const back = await t.http.get(second.body.links.prev, org.headers);
      expect(back.body.results.map((r: AuditRow) => r.resource_id)).toEqual([ids[3], ids[2], ids[1]]);
    });

    it("gets one record by id; another organization's record and an unknown id are 404", async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      await t.http.post('/management/v1/projects', { name: 'Mine' }, org.headers);
      const listed = (await t.http.get(EVENTS, org.headers)).body.results[0];
      const got = await t.http.get(`${EVENTS}/${listed.id}`, org.headers);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(listed);
      expect((await t.http.get(`${EVENTS}/${listed.id.toUpperCase()}`, org.headers)).body).toEqual(listed);
      const theirs = await t.http.get(`${EVENTS}/${listed.id}`, other.headers);
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect((await t.http.get(`${EVENTS}/${'f'.repeat(24)}`, org.headers)).status).toBe(404);
      expect((await t.http.get(`${EVENTS}/${listed.id}`)).status).toBe(401);
      const bad = await t.http.get(`${EVENTS}/not-an-id`, org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['auditEventId']);
    });

    it('validates filters with 422 naming the field', async () => {
      const org = await t.factory.org();
      for (const [query, field] of [
        ['created_from=yesterday', 'created_from'],
        ['created_from=2024-02-30T00:00:00Z', 'created_from'],
        ['created_to=2024-01-01', 'created_to'],
        ['created_from=2026-02-01T00:00:00Z&created_to=2026-01-01T00:00:00Z', 'created_to'],
        ['action=' + 'a'.repeat(101), 'action'],
        ['action=DROP%20TABLE', 'action'],
        ['resource_type=%00', 'resource_type'],
        ['resource_id=a%00b', 'resource_id'],
        ['actor_id=' + 'x'.repeat(101), 'actor_id'],
        ['page[size]=0', 'page[size]'],
        ['page[after]=garbage', 'page[after]'],
        ['sort_by=action', 'sort_by'],
        ['unknown=1', 'unknown'],
      ] as const) {
        const res = await t.http.get(`${EVENTS}?${query}`, org.headers);
        expect([query, res.status]).toEqual([query, 422]);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });

  describe('management writes', () => {
    /** A bundle with a provider key and a webhook secret in extension fields: neither may reach a record. */
    const SECRET_BUNDLE_VALUES = ['sk-live-bundle-provider-key-0123456789', 'whsec_bundle_webhook_secret_abcdef'];
    const secretBundle = {
      schema_version: 1,
      name: 'Audited bundle',
      persona: 'Persona text that is bundle content, not a summary',
      x_provider: { api_key: SECRET_BUNDLE_VALUES[0] },
      x_webhook: { secret: SECRET_BUNDLE_VALUES[1] },
    };

    interface Step {
      write: () => Promise<{ status: number; body: any; text: string }>;
      status: number;
      action: string;
      resourceType: string;
      /** The resource id, when the step's answer does not carry it as `id`. */
      resourceId?: () => string;
    }

    /**
     * Every management write the service offers, in an order that works, each followed by the check that exactly
     * one record appeared with the expected action, resource and actor. Returns the secrets the walk created.
     */
    async function walk(org: TestOrg, headers: Record<string, string>, actor: Partial<AuditRow>): Promise<string[]> {
      const secrets: string[] = [...SECRET_BUNDLE_VALUES];
      const ids: Record<string, string> = {};
      const phone = `+1555${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
      const steps: Record<string, Step> = {
        createProject: {
          write: () => t.http.post('/management/v1/projects', { name: 'Walk' }, headers),
          status: 201,
          action: 'project.create',
          resourceType: 'project',
        },
        createAgent: {
          write: () => t.http.post(`/management/v1/projects/${ids.createProject}/agents`, { name: 'Walker', runtime: 'v1' }, headers),
          status: 201,
          action: 'agent.create',
          resourceType: 'agent',
        },
        createVersion: {
          write: () => t.http.post(`/management/v1/agents/${ids.createAgent}/versions`, { source: 'empty', label: 'first' }, headers),
          status: 201,
          action: 'version.create',
          resourceType: 'version',
        },
        updateVersion: {
          write: () =>
            t.http.patch(
              `/management/v1/agents/${ids.createAgent}/versions/${ids.createVersion}`,
              { label: 'renamed', tags: ['a'] },
              headers,
            ),
          status: 200,
          action: 'version.update',
          resourceType: 'version',
        },
        push: {
          write: () =>
            t.http.post(
              `/management/v1/agents/${ids.createAgent}/versions/${ids.createVersion}/push`,
              { bundle: secretBundle, message: 'walk' },
              headers,
            ),
          status: 200,
          action: 'version.push',
          resourceType: 'version',
          resourceId: () => ids.createVersion!,
        },
        publish: {
          write: () => t.http.post(`/management/v1/agents/${ids.createAgent}/versions/${ids.createVersion}/publish`, undefined, headers),
          status: 200,
          action: 'version.publish',
          resourceType: 'version',
        },
        secondVersion: {
          write: () => t.http.post(`/management/v1/agents/${ids.createAgent}/versions`, { source: 'empty' }, headers),
          status: 201,
          action: 'version.create',
          resourceType: 'version',
        },
        archive: {
          write: () => t.http.post(`/management/v1/agents/${ids.createAgent}/versions/${ids.secondVersion}/archive`, undefined, headers),
          status: 200,
          action: 'version.archive',
          resourceType: 'version',
        },
        updateAgent: {
          write: () => t.http.patch(`/management/v1/agents/${ids.createAgent}`, { name: 'Walker Two', description: 'renamed' }, headers),
          status: 200,
          action: 'agent.update',
          resourceType: 'agent',
        },
        publishableKey: {
          write: () =>
            t.http.post(
              `/management/v1/agents/${ids.createAgent}/publishable-keys`,
              { allowed_origins: ['https://shop.example'] },
              headers,
            ),
          status: 201,
          action: 'publishable_key.create',
          resourceType: 'publishable_key',
        },
        revokePublishableKey: {
          write: () => t.http.delete(`/management/v1/agents/${ids.createAgent}/publishable-keys/${ids.publishableKey}`, headers),
          status: 204,
          action: 'publishable_key.revoke',
          resourceType: 'publishable_key',
          resourceId: () => ids.publishableKey!,
        },
        apiKey: {
          write: () => t.http.post(`/management/v1/agents/${ids.createAgent}/api-keys`, undefined, headers),
          status: 201,
          action: 'agent_api_key.create',
          resourceType: 'agent_api_key',
        },
        revokeApiKey: {
          write: () => t.http.delete(`/management/v1/agents/${ids.createAgent}/api-keys/${ids.apiKey}`, headers),
          status: 204,
          action: 'agent_api_key.revoke',
          resourceType: 'agent_api_key',
          resourceId: () => ids.apiKey!,
        },
        sender: {
          write: () => t.http.post('/management/v1/senders', { channel: 'sms', phone_number: phone, display_name: 'Walk line' }, headers),
          status: 201,
          action: 'sender.create',
          resourceType: 'sender',
        },
        deleteSender: {
          write: () => t.http.delete(`/management/v1/senders/${ids.sender}`, headers),
          status: 204,
          action: 'sender.delete',
          resourceType: 'sender',
          resourceId: () => ids.sender!,
        },
        renameThread: {
          write: () => t.http.patch(`/management/v1/threads/${ids.thread}`, { title: 'Renamed by support' }, headers),
          status: 200,
          action: 'thread.update',
          resourceType: 'thread',
        },
        deleteAgent: {
          write: () => t.http.delete(`/management/v1/agents/${ids.createAgent}`, headers),
          status: 204,
          action: 'agent.delete',
          resourceType: 'agent',
          resourceId: () => ids.createAgent!,
        },
        deleteProject: {
          write: () => t.http.delete(`/management/v1/projects/${ids.createProject}`, headers),
          status: 204,
          action: 'project.delete',
          resourceType: 'project',
          resourceId: () => ids.createProject!,
        },
      };
      for (const [name, step] of Object.entries(steps)) {
        if (name === 'renameThread') {
          ids.thread = await insertThread(t, { organizationId: org.id, projectId: ids.createProject!, agentId: ids.createAgent! });
        }
        const before = (await rows(org.id)).length;
        const res = expectStatus(await step.write(), step.status, name);
        if (res.body?.id) ids[name] = res.body.id as string;
        for (const field of ['publishable_key', 'api_key']) if (res.body?.[field]) secrets.push(res.body[field] as string);
        const added = (await rows(org.id)).slice(before);
        expect([name, added.length]).toEqual([name, 1]);
        expect(added[0]).toMatchObject({
          ...actor,
          action: step.action,
          resource_type: step.resourceType,
          resource_id: step.resourceId ? step.resourceId() : ids[name],
        });
      }
      return secrets;
    }

    const scanForSecrets = async (secrets: string[]) => {
      const all = JSON.stringify(await rows());
      for (const secret of secrets) expect([secret, all.includes(secret)]).toEqual([secret, false]);
    };

    it('records every write made with the organization API key, once each, and no secret', async () => {
      const org = await t.factory.org();
      const actor = { actor_kind: 'org_api_key', actor_id: await orgKeyId(org), actor_user_id: null };
      const secrets = await walk(org, org.headers, actor);
      await scanForSecrets([...secrets, org.apiKey]);

      const byAction = new Map((await rows(org.id)).map((row) => [row.action, row]));
      // Summaries: digests for bundles, changed fields for updates.
      expect(byAction.get('version.push')).toMatchObject({
        before: { version_tag: 'v1.0', digest: expect.stringMatching(/^sha256:/) },
        after: { version_tag: 'v1.1', digest: expect.stringMatching(/^sha256:/), message: 'walk', committed: true },
      });
      expect(byAction.get('version.update')).toMatchObject({
        before: { label: 'first', tags: [] },
        after: { label: 'renamed', tags: ['a'] },
      });
      expect(byAction.get('version.publish')).toMatchObject({
        before: { status: 'draft', live_version_id: null },
        after: { status: 'published', live_version_tag: 'v1.1' },
      });
      expect(byAction.get('agent.update')).toMatchObject({
        before: { name: 'Walker', description: null, live_version_tag: 'v1.1' },
        after: { name: 'Walker Two', description: 'renamed', live_version_tag: 'v1.2' },
      });
      expect(byAction.get('thread.update')).toMatchObject({ after: { title: 'Renamed by support' } });
      expect(JSON.stringify([...byAction.values()])).not.toContain('Persona text');
    });

    it('records the user of a login session as the actor of every write, and no token', async () => {
      const org = await t.factory.org();
      const login = await session(org);
      const secrets = await walk(org, login.headers, { actor_kind: 'session', actor_id: login.userId, actor_user_id: login.userId });
      await scanForSecrets([...secrets, login.token]);
    });

    it('records a knowledge upload and a document delete as one version.push each, with digests and no file contents', async () => {
      const org = await t.factory.org();
      const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Knowledge' }, org.headers), 201, 'project').body;
      const agent = expectStatus(
        await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Help desk', runtime: 'v2' }, org.headers),
        201,
        'agent',
      ).body;
      const version = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
        201,
        'v',
      ).body;
      const base = `/management/v1/agents/${agent.id}/versions/${version.id}/knowledge`;
      const before = (await rows(org.id)).length;
      const form = new FormData();
      form.append(
        'files',
        new Blob(['# Returns\n\nThe secret return code is KNOWLEDGE-CANARY-42.\n'], { type: 'text/markdown' }),
        'guide.md',
      );
      const uploaded = await fetch(`${t.baseUrl}${base}`, { method: 'POST', headers: org.headers, body: form });
      expect(uploaded.status).toBe(200);
      expectStatus(await t.http.delete(`${base}/${encodeURIComponent('guide.md:returns')}`, org.headers), 200, 'delete document');
      const added = (await rows(org.id)).slice(before);
      expect(added.map((row) => [row.action, row.resource_id, row.after?.committed])).toEqual([
        ['version.push', version.id, true],
        ['version.push', version.id, true],
      ]);
      expect(JSON.stringify(added)).not.toContain('KNOWLEDGE-CANARY-42');
    });

    it('records nothing for a failed write (422, 404, 409)', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const theirs = await t.factory.agentWithLiveVersion(other);
      const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Mine' }, org.headers), 201, 'project').body;
      const agent = expectStatus(
        await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Mine' }, org.headers),
        201,
        'agent',
      ).body;
      const v1 = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
        201,
        'v1',
      ).body;
      expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions/${v1.id}/publish`, undefined, org.headers),
        200,
        'publish',
      );
      const v2 = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
        201,
        'v2',
      ).body;
      expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions/${v2.id}/archive`, undefined, org.headers),
        200,
        'archive',
      );
      const phone = '+15550001234';
      expectStatus(await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: phone }, org.headers), 201, 'sender');
      const recorded = (await rows()).length;

      const failures: Array<[string, () => Promise<{ status: number }>, number]> = [
        ['project without name', () => t.http.post('/management/v1/projects', {}, org.headers), 422],
        [
          'agent in their project',
          () => t.http.post(`/management/v1/projects/${theirs.agent.projectId}/agents`, { name: 'x' }, org.headers),
          404,
        ],
        [
          'agent with bad runtime',
          () => t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'x', runtime: 'v9' }, org.headers),
          422,
        ],
        ['update their agent', () => t.http.patch(`/management/v1/agents/${theirs.agent.id}`, { name: 'Stolen' }, org.headers), 404],
        ['delete their agent', () => t.http.delete(`/management/v1/agents/${theirs.agent.id}`, org.headers), 404],
        ['delete their project', () => t.http.delete(`/management/v1/projects/${theirs.agent.projectId}`, org.headers), 404],
        [
          'version of their agent',
          () => t.http.post(`/management/v1/agents/${theirs.agent.id}/versions`, { source: 'empty' }, org.headers),
          404,
        ],
        ['publish archived', () => t.http.post(`/management/v1/agents/${agent.id}/versions/${v2.id}/publish`, undefined, org.headers), 409],
        ['archive live', () => t.http.post(`/management/v1/agents/${agent.id}/versions/${v1.id}/archive`, undefined, org.headers), 409],
        [
          'push to archived',
          () => t.http.post(`/management/v1/agents/${agent.id}/versions/${v2.id}/push`, { bundle: secretBundle }, org.headers),
          409,
        ],
        [
          'push invalid bundle',
          () => t.http.post(`/management/v1/agents/${agent.id}/versions/${v1.id}/push`, { bundle: { schema_version: 7 } }, org.headers),
          422,
        ],
        [
          'update unknown version',
          () => t.http.patch(`/management/v1/agents/${agent.id}/versions/${'f'.repeat(24)}`, { label: 'x' }, org.headers),
          404,
        ],
        ['key for their agent', () => t.http.post(`/management/v1/agents/${theirs.agent.id}/publishable-keys`, {}, org.headers), 404],
        [
          'revoke unknown key',
          () => t.http.delete(`/management/v1/agents/${agent.id}/publishable-keys/${'f'.repeat(24)}`, org.headers),
          404,
        ],
        ['revoke unknown api key', () => t.http.delete(`/management/v1/agents/${agent.id}/api-keys/${'f'.repeat(24)}`, org.headers), 404],
        ['duplicate sender', () => t.http.post('/management/v1/senders', { channel: 'sms', phone_number: phone }, org.headers), 409],
        ['delete unknown sender', () => t.http.delete(`/management/v1/senders/${'f'.repeat(24)}`, org.headers), 404],
        ['rename unknown thread', () => t.http.patch(`/management/v1/threads/${'f'.repeat(24)}`, { title: 'x' }, org.headers), 404],
        ['no credentials', () => t.http.post('/management/v1/projects', { name: 'Anonymous' }), 401],
      ];
      for (const [name, write, status] of failures) expect([name, (await write()).status]).toEqual([name, status]);
      expect(await rows()).toHaveLength(recorded);
    });
  });
});
