// Traffic splits between versions (issue 20, docs/releases.md): a sticky split of new threads by a hash of
// (agent, user_id), followed by every send; publish/archive interplay; reporting by version; validation and tenancy.
import { trafficBucket } from '../../src/modules/messaging/live-agents.service.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import type { TestOrg } from '../factories/factory.js';

const SEND = '/messaging/v1/messages';

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

describe('traffic splits between versions', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let shop: LiveTestAgent;
  /** Version A (live) and B (published, not live), C (draft). */
  let a: { id: string; tag: string };
  let b: { id: string; tag: string };
  let draftId: string;
  const traffic = () => `/management/v1/agents/${shop.agentId}/traffic`;
  const put = (body: unknown, headers = org.headers, path = traffic()) => t.http.request('PUT', path, { body, headers });
  const auditRows = async (action: string) =>
    (await t.dataSource.query(
      `SELECT actor_kind, actor_id, resource_type, resource_id, before, after FROM audit_events WHERE action = $1 AND resource_id = $2 ORDER BY created_at, id`,
      [action, shop.agentId],
    )) as Array<Record<string, unknown>>;
  const versionOf = async (threadId: string) =>
    (await t.dataSource.query(`SELECT version_tag FROM threads WHERE id = $1`, [threadId]))[0]?.version_tag as string;

  async function newVersion(label: string, publish: boolean): Promise<{ id: string; tag: string }> {
    const h = org.headers;
    const v = expectStatus(
      await t.http.post(`/management/v1/agents/${shop.agentId}/versions`, { source: 'clone', from_version_id: shop.versionId, label }, h),
      201,
      'clone',
    ).body;
    const pushed = expectStatus(
      await t.http.post(
        `/management/v1/agents/${shop.agentId}/versions/${v.id}/push`,
        { bundle: { ...shopBundle, welcome_message: `Hi from ${label}` } },
        h,
      ),
      200,
      'push',
    ).body;
    if (publish) {
      expectStatus(await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${v.id}/publish`, undefined, h), 200, 'publish');
    }
    return { id: v.id, tag: pushed.version_tag };
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000', EVENTS_POLL_MS: '300' });
    org = await t.factory.org();
    other = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    b = await newVersion('candidate', true);
    // Back to the first version as the live one: B stays published, not live.
    expectStatus(
      await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${shop.versionId}/publish`, undefined, org.headers),
      200,
      'republish',
    );
    const live = (await t.http.get(`/management/v1/agents/${shop.agentId}`, org.headers)).body;
    a = { id: shop.versionId, tag: live.live_version_tag };
    draftId = expectStatus(
      await t.http.post(`/management/v1/agents/${shop.agentId}/versions`, { source: 'empty' }, org.headers),
      201,
      'draft',
    ).body.id;
  }, 60_000);
  afterAll(() => t.close());

  it('without a split GET answers an empty split', async () => {
    const res = await t.http.get(traffic(), org.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ agent_id: shop.agentId, live_version_id: a.id, splits: [], updated_at: null });
  });

  it('refuses invalid splits with 422 naming the field, and changes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [
        {
          splits: [
            { version_id: a.id, percent: 90 },
            { version_id: b.id, percent: 5 },
          ],
        },
        'splits',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 50 },
            { version_id: a.id, percent: 50 },
          ],
        },
        'splits[1].version_id',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 90 },
            { version_id: draftId, percent: 10 },
          ],
        },
        'splits[1].version_id',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 0 },
            { version_id: b.id, percent: 100 },
          ],
        },
        'splits[0].percent',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 101 },
            { version_id: b.id, percent: -1 },
          ],
        },
        'splits[0].percent',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 89.5 },
            { version_id: b.id, percent: 10.5 },
          ],
        },
        'splits[0].percent',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: '90' },
            { version_id: b.id, percent: 10 },
          ],
        },
        'splits[0].percent',
      ],
      [{ splits: [{ version_id: a.id, percent: 100 }] }, 'splits'],
      [{ splits: [] }, 'splits'],
      [{}, 'splits'],
      [
        {
          splits: [
            { version_id: 'nope', percent: 50 },
            { version_id: b.id, percent: 50 },
          ],
        },
        'splits[0].version_id',
      ],
      [
        {
          splits: [
            { version_id: a.id, percent: 50, extra: 1 },
            { version_id: b.id, percent: 50 },
          ],
        },
        'splits[0].extra',
      ],
      [{ splits: [1, 2] }, 'splits'],
      [{ splits: Array.from({ length: 11 }, () => ({ version_id: a.id, percent: 9 })) }, 'splits'],
    ];
    for (const [body, field] of cases) {
      const res = await put(body);
      expect({ body, status: res.status, code: res.body.error.code }).toEqual({ body, status: 422, code: 'validation_error' });
      expect({ body, fields: res.body.error.details.map((d: { field: string }) => d.field) }).toEqual({
        body,
        fields: expect.arrayContaining([field]),
      });
    }
    // The live version must be one of the arms.
    const c = await newVersion('third', false);
    expectStatus(
      await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${c.id}/publish`, undefined, org.headers),
      200,
      'publish c',
    );
    expectStatus(
      await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${a.id}/publish`, undefined, org.headers),
      200,
      'back to a',
    );
    const withoutLive = await put({
      splits: [
        { version_id: b.id, percent: 50 },
        { version_id: c.id, percent: 50 },
      ],
    });
    expect(withoutLive.status).toBe(422);
    expect(withoutLive.body.error.details).toEqual([{ field: 'splits', message: expect.stringContaining('live version') }]);
    const rows = await t.dataSource.query(`SELECT count(*)::int AS n FROM agent_traffic_splits WHERE agent_id = $1`, [shop.agentId]);
    expect(rows[0].n).toBe(0);
    // Failed writes record nothing in the audit log.
    expect(await auditRows('traffic.update')).toEqual([]);
  });

  it('answers 401 without or with wrong credentials and 404 for another tenant’s agent or version', async () => {
    const body = {
      splits: [
        { version_id: a.id, percent: 90 },
        { version_id: b.id, percent: 10 },
      ],
    };
    for (const headers of [{}, { authorization: 'Bearer nope' }, { 'x-organization-api-key': 'sk_wrong' }] as Array<
      Record<string, string>
    >) {
      expect((await t.http.get(traffic(), headers)).status).toBe(401);
      expect((await put(body, headers)).status).toBe(401);
      expect((await t.http.delete(traffic(), headers)).status).toBe(401);
    }
    expect((await t.http.get(traffic(), other.headers)).body.error.code).toBe('not_found');
    expect((await put(body, other.headers)).status).toBe(404);
    expect((await t.http.delete(traffic(), other.headers)).status).toBe(404);
    // Another tenant's version in the body: 404 like any id the caller cannot see.
    const foreign = await liveAgent(t, other, { bundle: shopBundle, runtime: 'v1' });
    const res = await put({
      splits: [
        { version_id: a.id, percent: 90 },
        { version_id: foreign.versionId, percent: 10 },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await t.http.get(traffic(), org.headers)).body.splits).toEqual([]);
  });

  describe('a 90/10 split', () => {
    const USERS = 2000;
    const assigned = new Map<string, { threadId: string; tag: string }>();

    beforeAll(async () => {
      const res = await put({
        splits: [
          { version_id: a.id, percent: 90 },
          { version_id: b.id, percent: 10 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        agent_id: shop.agentId,
        live_version_id: a.id,
        splits: [
          { version_id: a.id, version_tag: a.tag, percent: 90, is_live: true },
          { version_id: b.id, version_tag: b.tag, percent: 10, is_live: false },
        ],
        updated_at: expect.any(String),
      });
      expect((await t.http.get(traffic(), org.headers)).body).toEqual(res.body);
      expect(await auditRows('traffic.update')).toEqual([
        {
          actor_kind: 'org_api_key',
          actor_id: (await t.dataSource.query(`SELECT id FROM organization_api_keys WHERE organization_id = $1`, [org.id]))[0].id,
          resource_type: 'agent',
          resource_id: shop.agentId,
          before: null,
          after: {
            splits: [
              { version_id: a.id, version_tag: a.tag, percent: 90 },
              { version_id: b.id, version_tag: b.tag, percent: 10 },
            ],
          },
        },
      ]);
      const users = Array.from({ length: USERS }, (_, i) => `split-user-${i}`);
      const sent = await pool(users, 16, async (user) => {
        const r = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: user }, shop.headers);
        if (r.status !== 200) throw new Error(`send ${user}: ${r.status} ${r.text}`);
        return r.body.thread_id as string;
      });
      const rows: Array<{ id: string; user_id: string; version_tag: string }> = await t.dataSource.query(
        `SELECT id, user_id, version_tag FROM threads WHERE agent_id = $1 AND user_id LIKE 'split-user-%'`,
        [shop.agentId],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      users.forEach((user, i) => assigned.set(user, { threadId: sent[i]!, tag: byId.get(sent[i]!)!.version_tag }));
    }, 240_000);

    it('lands within ±3 points of 10 % on the candidate, each user on the arm of their hash bucket', () => {
      const candidates = [...assigned.values()].filter((x) => x.tag === b.tag).length;
      expect(Math.abs((candidates / USERS) * 100 - 10)).toBeLessThanOrEqual(3);
      for (const [user, { tag }] of assigned) {
        expect({ user, tag }).toEqual({ user, tag: trafficBucket(shop.agentId, user) < 90 ? a.tag : b.tag });
      }
      expect(new Set([...assigned.values()].map((x) => x.tag))).toEqual(new Set([a.tag, b.tag]));
    });

    it('keeps every user on one arm across 5 turns and in a second thread', async () => {
      const sample = [...assigned.entries()].filter(([, x]) => x.tag === b.tag).slice(0, 20);
      sample.push(...[...assigned.entries()].filter(([, x]) => x.tag === a.tag).slice(0, 20));
      await pool(sample, 8, async ([user, { threadId }]) => {
        for (let turn = 0; turn < 4; turn += 1) {
          expectStatus(await t.http.post(SEND, { text: 'Any in size 42?', user_id: user, thread_id: threadId }, shop.headers), 200, 'turn');
        }
        const second = expectStatus(await t.http.post(SEND, { text: 'hello again', user_id: user }, shop.headers), 200, 'second thread');
        expect(await versionOf(second.body.thread_id)).toBe(assigned.get(user)!.tag);
      });
      const rows: Array<{ thread_id: string; tags: string[]; n: number }> = await t.dataSource.query(
        `SELECT thread_id, array_agg(DISTINCT version_tag) AS tags, count(*)::int AS n FROM interactions WHERE thread_id = ANY($1) GROUP BY thread_id`,
        [sample.map(([, x]) => x.threadId)],
      );
      expect(rows).toHaveLength(sample.length);
      for (const row of rows) {
        const [user, x] = sample.find(([, s]) => s.threadId === row.thread_id)!;
        expect({ user, tags: row.tags, n: row.n }).toEqual({ user, tags: [x.tag], n: 5 });
      }
    });

    it('reports the arm in traces, in the usage breakdown and in the thread list filter', async () => {
      const [, someB] = [...assigned.entries()].find(([, x]) => x.tag === b.tag)!;
      const traces = (await t.http.get(`/management/v1/threads/${someB.threadId}/trace`, org.headers)).body;
      expect(traces.results[0]).toMatchObject({ version_id: b.id, version_tag: b.tag });

      const usage = await t.http.get(`/management/v1/agents/${shop.agentId}/usage?group_by=version_tag`, org.headers);
      expect(usage.status).toBe(200);
      const counts: Array<{ version_tag: string; n: number }> = await t.dataSource.query(
        `SELECT version_tag, count(*)::int AS n FROM interactions WHERE agent_id = $1 GROUP BY version_tag`,
        [shop.agentId],
      );
      const byTag = Object.fromEntries(
        usage.body.by_version.map((v: { version_tag: string; interaction_count: number }) => [v.version_tag, v.interaction_count]),
      );
      expect(byTag).toEqual(Object.fromEntries(counts.map((c) => [c.version_tag, c.n])));
      expect(usage.body.by_version.reduce((sum: number, v: { interaction_count: number }) => sum + v.interaction_count, 0)).toBe(
        usage.body.interaction_count,
      );
      // Without group_by, the answer is the plain totals.
      const plain = (await t.http.get(`/management/v1/agents/${shop.agentId}/usage`, org.headers)).body;
      expect(plain).not.toHaveProperty('by_version');
      expect(plain.interaction_count).toBe(usage.body.interaction_count);
      expect(
        (await t.http.get(`/management/v1/agents/${shop.agentId}/usage?group_by=agent`, org.headers)).body.error.details[0].field,
      ).toBe('group_by');

      // The thread list filtered by the candidate's tag lists exactly the threads on it.
      const listed = new Set<string>();
      let path: string | null = `/management/v1/threads?agent_id=${shop.agentId}&version_tag=${b.tag}&page[size]=100`;
      while (path) {
        const page: { body: { results: Array<{ id: string; version_tag: string }>; links: { next: string | null } } } = await t.http.get(
          path,
          org.headers,
        );
        for (const item of page.body.results) {
          expect(item.version_tag).toBe(b.tag);
          listed.add(item.id);
        }
        path = page.body.links.next;
      }
      const onB = await t.dataSource.query(`SELECT id FROM threads WHERE agent_id = $1 AND version_tag = $2`, [shop.agentId, b.tag]);
      expect(listed).toEqual(new Set(onB.map((r: { id: string }) => r.id)));
      expect(onB.length).toBeGreaterThan(100);
      const bad = await t.http.get(`/management/v1/threads?version_tag=latest`, org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('version_tag');
    });

    it('places new threads the same way on the events webhook, SSE and channels', async () => {
      const users = Array.from({ length: 40 }, (_, i) => `surface-user-${i}`);
      const expected = (user: string) => (trafficBucket(shop.agentId, user) < 90 ? a.tag : b.tag);
      expect(new Set(users.map(expected))).toEqual(new Set([a.tag, b.tag]));
      const key = expectStatus(await t.http.post(`/management/v1/agents/${shop.agentId}/api-keys`, undefined, org.headers), 201, 'api key')
        .body.api_key as string;
      const sender = expectStatus(
        await t.http.post(
          '/management/v1/senders',
          { channel: 'sms', phone_number: '+15550001111', display_name: 'Split line' },
          org.headers,
        ),
        201,
        'sender',
      ).body;
      for (const [i, user] of users.entries()) {
        const surface = i % 3;
        let threadId: string;
        if (surface === 0) {
          const accepted = await t.http.post(
            '/messaging/v1/events',
            { text: 'order shipped', thread_id: `ext-${user}`, agent_variables: { user_id: user } },
            { 'x-agent-api-key': key },
          );
          expect(accepted.status).toBe(202);
          threadId = await waitFor(
            async () =>
              (
                await t.dataSource.query(`SELECT id FROM threads WHERE agent_id = $1 AND external_id = $2 AND interaction_count > 0`, [
                  shop.agentId,
                  `ext-${user}`,
                ])
              )[0]?.id as string | undefined,
            `event thread of ${user}`,
            30_000,
          );
        } else if (surface === 1) {
          const streamed = await t.http.post(`${SEND}/stream`, { text: 'show me jackets', user_id: user }, shop.headers);
          expect(streamed.status).toBe(200);
          threadId = /"thread_id":"([0-9a-f]{24})"/.exec(streamed.text)![1]!;
        } else {
          const started = await t.http.post(
            '/messaging/v1/channels/sms/threads',
            { user_id: user, phone_number: '+15557654321', sender_id: sender.id },
            shop.headers,
          );
          expect(started.status).toBe(201);
          threadId = started.body.thread_id;
        }
        expect({ user, surface, tag: await versionOf(threadId) }).toEqual({ user, surface, tag: expected(user) });
      }
    }, 120_000);

    it('answers 409 version_in_traffic_split when archiving an arm, and leaves it published', async () => {
      const res = await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${b.id}/archive`, undefined, org.headers);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('version_in_traffic_split');
      const version = (await t.http.get(`/management/v1/agents/${shop.agentId}/versions/${b.id}`, org.headers)).body;
      expect(version.status).toBe('published');
    });

    it('a publish outside the split takes the live arm’s share; threads stay on their versions', async () => {
      const d = await newVersion('successor', true);
      const split = (await t.http.get(traffic(), org.headers)).body;
      expect(split.live_version_id).toBe(d.id);
      expect(split.splits).toEqual([
        { version_id: d.id, version_tag: d.tag, percent: 90, is_live: true },
        { version_id: b.id, version_tag: b.tag, percent: 10, is_live: false },
      ]);
      const [userA, onA] = [...assigned.entries()].find(([, x]) => x.tag === a.tag)!;
      const [userB, onB] = [...assigned.entries()].find(([, x]) => x.tag === b.tag)!;
      for (const [user, x] of [
        [userA, onA],
        [userB, onB],
      ] as const) {
        expectStatus(await t.http.post(SEND, { text: 'still there?', user_id: user, thread_id: x.threadId }, shop.headers), 200, 'turn');
        expect(await versionOf(x.threadId)).toBe(x.tag);
      }
      // A new thread of an end user in the live bucket goes to the new live version.
      const fresh = expectStatus(await t.http.post(SEND, { text: 'hi', user_id: userA }, shop.headers), 200, 'new thread');
      expect(await versionOf(fresh.body.thread_id)).toBe(d.tag);
      // Archiving A (no longer an arm) moves its threads to their user's arm.
      expectStatus(
        await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${a.id}/archive`, undefined, org.headers),
        200,
        'archive a',
      );
      expectStatus(await t.http.post(SEND, { text: 'and now?', user_id: userA, thread_id: onA.threadId }, shop.headers), 200, 'turn');
      expect(await versionOf(onA.threadId)).toBe(d.tag);
    });

    it('ending the split sends new threads to the live version and leaves the live version alone', async () => {
      const before = (await t.http.get(`/management/v1/agents/${shop.agentId}`, org.headers)).body;
      const res = await t.http.delete(traffic(), org.headers);
      expect(res.status).toBe(204);
      expect((await t.http.get(traffic(), org.headers)).body.splits).toEqual([]);
      const after = (await t.http.get(`/management/v1/agents/${shop.agentId}`, org.headers)).body;
      expect(after.live_version_id).toBe(before.live_version_id);
      expect(after.live_version_tag).toBe(before.live_version_tag);
      const bUsers = [...assigned.entries()].filter(([, x]) => x.tag === b.tag).slice(0, 10);
      for (const [user] of bUsers) {
        const sent = expectStatus(await t.http.post(SEND, { text: 'hi', user_id: user }, shop.headers), 200, 'new thread');
        expect(await versionOf(sent.body.thread_id)).toBe(before.live_version_tag);
      }
      // Without a split every thread answers with the live version, as the spec's state table says.
      const [userB, onB] = bUsers[0]!;
      expectStatus(await t.http.post(SEND, { text: 'back?', user_id: userB, thread_id: onB.threadId }, shop.headers), 200, 'turn');
      expect(await versionOf(onB.threadId)).toBe(before.live_version_tag);
      // A second DELETE is a 204 no-op (audited once, the first time); the candidate can now be archived.
      expect((await t.http.delete(traffic(), org.headers)).status).toBe(204);
      const deletions = await auditRows('traffic.delete');
      expect(deletions).toHaveLength(1);
      expect(deletions[0]).toMatchObject({
        actor_kind: 'org_api_key',
        before: { splits: [{ percent: 90 }, { version_id: b.id, percent: 10 }] },
        after: null,
      });
      expect((await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${b.id}/archive`, undefined, org.headers)).status).toBe(
        200,
      );
    });
  });
});
