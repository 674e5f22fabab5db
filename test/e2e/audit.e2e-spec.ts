import { AuditService } from '../../src/modules/audit/audit.service.js';
import { UnitOfWork } from '../../src/database/unit-of-work.js';
import type { TestOrg } from '../factories/factory.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

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
      expect((await t.http.post('/management/v1/projects', { name: 'By a person' }, login.headers)).status).toBe(201);
      const [row] = await rows();
      expect(row).toMatchObject({ actor_kind: 'session', actor_id: login.userId, actor_user_id: login.userId });
      expect(row!.request_id).toEqual(expect.any(String));
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
});
