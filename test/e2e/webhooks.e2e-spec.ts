// Outbound webhooks (docs/webhooks.md): a local receiver verifies every delivery with the `standardwebhooks` npm
// package (the spec's reference implementation), as an operator's receiver would.
import { jest } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import { EventBus } from '../../src/common/bus/event-bus.js';
import type { WebhookDisabled } from '../../src/common/bus/event-map.js';
import { newId } from '../../src/common/ids/new-id.js';
import { TurnPipeline } from '../../src/modules/messaging/turn-pipeline.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks/webhooks.constants.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Receiver, type Answer } from '../support/webhook-receiver.js';

/**
 * The body schema of each event type's webhook in the service's OpenAPI document (`webhooks`), compiled against the
 * document's components: every delivery received is checked against the schema of its type.
 */
function webhookSchemas(document: any): Map<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'openapi.json', components: document.components });
  return new Map(
    Object.entries(document.webhooks ?? {}).map(([type, webhook]: [string, any]) => [
      type,
      ajv.compile({ $ref: `openapi.json${webhook.post.requestBody.content['application/json'].schema.$ref}` }),
    ]),
  );
}

const webhooksOf = (projectId: string) => `/management/v1/projects/${projectId}/webhooks`;

describe('outbound webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  let twilio: FakeTwilio;
  let org: TestOrg;
  let agent: LiveTestAgent;
  let projectId: string;
  let schemas: Map<string, ValidateFunction>;
  /** `webhook-id`s of deliveries a test wrote itself (not the service's messages: no schema to match). */
  const handMade = new Set<string>();

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    twilio = await startFakeTwilio();
    t = await createTestApp({
      WEBHOOKS_TIMEOUT_MS: '300',
      WEBHOOKS_RETRY_SCHEDULE_MS: '30,30,30,30,30,30',
      WEBHOOKS_DISABLE_AFTER_FAILURES: '4',
      WEBHOOKS_SWEEP_INTERVAL_MS: '200',
      WEBHOOKS_STALE_MS: '100',
      CHANNEL_PROVIDER_BASE_URL: twilio.url,
      CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
      CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
      CHANNEL_PUBLIC_BASE_URL: 'https://agents.example.com',
      CHANNEL_DEFAULT_SENDER_WHATSAPP: '+15550002222',
    });
    schemas = webhookSchemas(expectStatus(await t.http.get('/openapi.json'), 200, 'OpenAPI document').body);
  });
  beforeEach(async () => {
    await t.reset();
    twilio.reset();
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    projectId = expectStatus(await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers), 200, 'agent').body.project_id;
  });
  afterEach(() => {
    // Every delivery any test received verified with a secret the receiver was given for its endpoint.
    expect(receiver.received.filter((r) => r.verifiedWith.length === 0).map((r) => r.path)).toEqual([]);
    // Every delivery matched the schema the OpenAPI document gives its type.
    const mismatches = receiver.received.flatMap((r) => {
      if (handMade.has(String(r.headers['webhook-id']))) return [];
      const validate = schemas.get(r.payload.type);
      if (!validate) return [`${r.payload.type}: not in the document's webhooks`];
      return validate(r.payload) ? [] : [`${r.payload.type}: ${JSON.stringify(validate.errors)}`];
    });
    expect(mismatches).toEqual([]);
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await twilio.close();
  });

  /** Subscribes a fresh receiver path; the receiver trusts the returned secret. */
  async function subscribe(events: string[], answers: Answer[] = []): Promise<{ id: string; path: string; secret: string }> {
    const path = receiver.path(answers);
    const res = expectStatus(
      await t.http.post(webhooksOf(projectId), { url: `${receiver.url}${path}`, events }, org.headers),
      201,
      'subscribe',
    );
    receiver.trust(path, res.body.secret);
    return { id: res.body.id, path, secret: res.body.secret };
  }

  const send = (body: Record<string, unknown>) => t.http.post('/messaging/v1/messages', { user_id: 'u1', ...body }, agent.headers);

  /** The audit records of webhook writes, oldest first. */
  async function audited(): Promise<Array<{ action: string; actor_kind: string; resource_id: string; text: string }>> {
    const rows = await t.dataSource.query(
      `SELECT action, actor_kind, resource_id, before, after FROM audit_events WHERE action LIKE 'webhook.%' ORDER BY created_at, id`,
    );
    return rows.map((r: any) => ({
      action: r.action,
      actor_kind: r.actor_kind,
      resource_id: r.resource_id,
      text: JSON.stringify([r.before, r.after]),
    }));
  }

  async function deliveries(webhookId: string): Promise<any[]> {
    return expectStatus(await t.http.get(`${webhooksOf(projectId)}/${webhookId}/deliveries`, org.headers), 200, 'deliveries').body.results;
  }

  describe('management', () => {
    it('creates an endpoint with its secret shown once; lists, reads, changes and deletes it', async () => {
      const created = await t.http.post(
        webhooksOf(projectId),
        { url: 'https://hooks.example.com/a', events: ['turn.completed'], description: 'CRM' },
        org.headers,
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        project_id: projectId,
        url: 'https://hooks.example.com/a',
        events: ['turn.completed'],
        description: 'CRM',
        enabled: true,
        disabled_reason: null,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
      });
      const path = `${webhooksOf(projectId)}/${created.body.id}`;

      const list = await t.http.get(webhooksOf(projectId), org.headers);
      expect(list.status).toBe(200);
      expect(list.body.results).toHaveLength(1);
      expect(list.body.results[0]).not.toHaveProperty('secret');
      expect(list.text).not.toContain(created.body.secret);
      const one = await t.http.get(path, org.headers);
      expect(one.body).toEqual(list.body.results[0]);

      const patched = await t.http.patch(path, { events: ['turn.completed', 'event.failed'], enabled: false }, org.headers);
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ events: ['turn.completed', 'event.failed'], enabled: false });
      const [row] = await t.dataSource.query(`SELECT events, enabled FROM webhook_endpoints WHERE id = $1`, [created.body.id]);
      expect(row).toEqual({ events: ['turn.completed', 'event.failed'], enabled: false });

      const rotated = await t.http.post(`${path}/rotate-secret`, {}, org.headers);
      expect(rotated.status).toBe(200);

      expect((await t.http.delete(path, org.headers)).status).toBe(204);
      expect((await t.http.get(path, org.headers)).status).toBe(404);
      expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints WHERE id = $1`, [created.body.id])).toEqual([]);

      // One audit record per write, by the organization key, never with a secret in it.
      const records = await audited();
      expect(records.map((r) => [r.action, r.actor_kind, r.resource_id])).toEqual(
        ['webhook.create', 'webhook.update', 'webhook.rotate_secret', 'webhook.delete'].map((a) => [a, 'org_api_key', created.body.id]),
      );
      for (const record of records) {
        expect(record.text).not.toContain(created.body.secret);
        expect(record.text).not.toContain(rotated.body.secret);
        expect(record.text).not.toContain('whsec_');
      }
    });

    it('answers 401 without or with wrong credentials', async () => {
      const body = { url: 'https://hooks.example.com/a', events: ['turn.completed'] };
      expect((await t.http.post(webhooksOf(projectId), body)).status).toBe(401);
      expect((await t.http.get(webhooksOf(projectId), { 'x-organization-api-key': 'wrong' })).status).toBe(401);
      expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints`)).toEqual([]);
    });

    it("answers 404 for another organization's project, webhook and deliveries, and changes nothing", async () => {
      const { id } = await subscribe(['turn.completed']);
      const other = await t.factory.org();
      const base = `${webhooksOf(projectId)}/${id}`;
      const body = { url: 'https://hooks.example.com/b', events: ['turn.completed'] };
      const answers = await Promise.all([
        t.http.post(webhooksOf(projectId), body, other.headers),
        t.http.get(webhooksOf(projectId), other.headers),
        t.http.get(base, other.headers),
        t.http.patch(base, { enabled: false }, other.headers),
        t.http.post(`${base}/rotate-secret`, {}, other.headers),
        t.http.get(`${base}/deliveries`, other.headers),
        t.http.post(`${base}/deliveries/${newId()}/redeliver`, undefined, other.headers),
        t.http.delete(base, other.headers),
      ]);
      expect(answers.map((a) => [a.status, a.body?.error?.code])).toEqual(answers.map(() => [404, 'not_found']));
      const [row] = await t.dataSource.query(`SELECT enabled FROM webhook_endpoints WHERE id = $1`, [id]);
      expect(row).toEqual({ enabled: true });
      expect((await audited()).map((r) => r.action)).toEqual(['webhook.create']);
    });

    it.each([
      ['http://169.254.169.254/latest/meta-data/', 'the metadata address'],
      ['http://10.0.0.1/hook', 'a private address'],
      ['http://[::ffff:10.0.0.1]/hook', 'a private address as IPv6'],
      ['ftp://hooks.example.com/', 'a scheme other than http(s)'],
      ['https://user:pw@hooks.example.com/', 'credentials in the URL'],
    ])('refuses %s (%s) with 422 on url, and stores nothing', async (url) => {
      const res = await t.http.post(webhooksOf(projectId), { url, events: ['turn.completed'] }, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'url' })]);
      expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints`)).toEqual([]);
      expect(await audited()).toEqual([]);
    });

    it('refuses an SSRF target on update too, and keeps the URL', async () => {
      const { id } = await subscribe(['turn.completed']);
      const res = await t.http.patch(`${webhooksOf(projectId)}/${id}`, { url: 'http://169.254.169.254/' }, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'url' })]);
      const [row] = await t.dataSource.query(`SELECT url FROM webhook_endpoints WHERE id = $1`, [id]);
      expect(row.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    });

    it('answers 422 with details[].field for invalid input', async () => {
      const cases: Array<[unknown, string]> = [
        [{ url: 'https://hooks.example.com/a', events: ['turn.exploded'] }, 'events'],
        [{ url: 'https://hooks.example.com/a', events: [] }, 'events'],
        [{ url: 'https://hooks.example.com/a' }, 'events'],
        [{ events: ['turn.completed'] }, 'url'],
        [{ url: 'https://hooks.example.com/a', events: ['turn.completed'], description: 'x'.repeat(501) }, 'description'],
        [{ url: 'https://hooks.example.com/a', events: ['turn.completed'], enabled: 'yes' }, 'enabled'],
        [{ url: 'https://hooks.example.com/a', events: ['turn.completed'], secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(webhooksOf(projectId), body, org.headers);
        expect([res.status, res.body.error.details.map((d: { field: string }) => d.field)]).toEqual([422, expect.arrayContaining([field])]);
      }
      const { id } = await subscribe(['turn.completed']);
      const rotate = await t.http.post(`${webhooksOf(projectId)}/${id}/rotate-secret`, { overlap_seconds: -1 }, org.headers);
      expect(rotate.status).toBe(422);
      expect(rotate.body.error.details[0].field).toBe('overlap_seconds');
      const badId = await t.http.get(`${webhooksOf(projectId)}/not-an-id`, org.headers);
      expect(badId.status).toBe(422);
      expect(badId.body.error.details[0].field).toBe('webhookId');
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_endpoints`)).toEqual([{ n: 1 }]);
    });
  });

  describe('event types', () => {
    it('delivers thread.created and turn.completed of a JSON send, signed, with a sequence per thread', async () => {
      const hook = await subscribe(['turn.completed', 'thread.created']);
      const first = expectStatus(await send({ text: 'I am looking for trail shoes' }), 200, 'send').body;
      const second = expectStatus(await send({ text: 'Any in size 42?', thread_id: first.thread_id }), 200, 'send').body;
      const received = await receiver.waitFor(hook.path, 3);
      const byType = (type: string) => received.filter((r) => r.payload.type === type);
      expect(byType('thread.created')).toHaveLength(1);
      expect(byType('turn.completed')).toHaveLength(2);

      const turn = byType('turn.completed').find((r) => r.payload.data.interaction_id === second.interaction_id)!;
      expect(turn.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
      expect(turn.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      expect(turn.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(turn.payload).toMatchObject({
        type: 'turn.completed',
        organization_id: org.id,
        project_id: projectId,
        thread_id: first.thread_id,
        data: {
          thread_id: first.thread_id,
          interaction_id: second.interaction_id,
          agent_id: agent.agentId,
          version_id: agent.versionId,
          version_tag: expect.any(String),
          source: 'api',
          usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
          reply: { message_id: second.message.id, text: second.message.text, cards: expect.any(Array) },
        },
      });
      const created = byType('thread.created')[0]!;
      expect(created.payload).toMatchObject({ thread_id: first.thread_id, data: { thread_id: first.thread_id, user_id: 'u1' } });
      // One sequence per thread, in the order the changes committed: thread.created, then each turn.
      const sequences = received.map((r) => [r.payload.type, r.payload.data.interaction_id ?? null, r.payload.sequence]);
      expect(sequences).toEqual(
        expect.arrayContaining([
          ['thread.created', null, 1],
          ['turn.completed', first.interaction_id, 2],
          ['turn.completed', second.interaction_id, 3],
        ]),
      );
    });

    it('delivers turn.completed of a streamed (SSE) turn, and nothing of a type not subscribed', async () => {
      const hook = await subscribe(['turn.completed']);
      const res = await fetch(`${t.baseUrl}/messaging/v1/messages/stream`, {
        method: 'POST',
        headers: { ...agent.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ text: 'hello there', user_id: 'u2' }),
      });
      expect(res.status).toBe(200);
      await res.text();
      const [turn] = await receiver.waitFor(hook.path, 1);
      expect(turn!.payload).toMatchObject({ type: 'turn.completed', data: { user_id: 'u2', source: 'api' } });
      expect(receiver.at(hook.path, 'thread.created')).toEqual([]);
      expect(await t.dataSource.query(`SELECT event_type FROM webhook_deliveries`)).toEqual([{ event_type: 'turn.completed' }]);
    });

    it('delivers event.completed and event.failed of the events webhook with the event id and outcome', async () => {
      const hook = await subscribe(['event.completed', 'event.failed', 'turn.completed']);
      const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers), 201, 'key').body
        .api_key;
      const messaging = t.app.get(TurnPipeline);
      const real = messaging.run.bind(messaging);
      // A deterministic engine failure for one text, as a failing turn would raise.
      const spy = jest.spyOn(messaging, 'run').mockImplementation(async (caller, request, onEvent) => {
        if (request.text === 'engine blow-up') throw new RangeError('Invalid string length');
        return real(caller, request, onEvent);
      });
      try {
        const ok = await t.http.post(
          '/messaging/v1/events',
          { thread_id: 'ext-1', text: 'trail shoes please' },
          { 'x-agent-api-key': key },
        );
        const bad = await t.http.post('/messaging/v1/events', { thread_id: 'ext-2', text: 'engine blow-up' }, { 'x-agent-api-key': key });
        expect([ok.status, bad.status]).toEqual([202, 202]);
        const [completed] = await receiver.waitFor(hook.path, 1, 'event.completed');
        const [failed] = await receiver.waitFor(hook.path, 1, 'event.failed');
        const [turn] = await receiver.waitFor(hook.path, 1, 'turn.completed');
        expect(completed!.payload.data).toMatchObject({
          event_id: ok.body.event_id,
          status: 'completed',
          external_thread_id: 'ext-1',
          thread_id: turn!.payload.data.thread_id,
          interaction_id: turn!.payload.data.interaction_id,
        });
        expect(turn!.payload.data).toMatchObject({ source: 'event', event_id: ok.body.event_id });
        expect(completed!.payload.sequence).toBeGreaterThan(turn!.payload.sequence);
        expect(failed!.payload.data).toMatchObject({
          event_id: bad.body.event_id,
          status: 'failed',
          external_thread_id: 'ext-2',
          error: expect.stringContaining('Invalid string length'),
        });
      } finally {
        spy.mockRestore();
      }
    });

    it('delivers version.published when a version goes live', async () => {
      const hook = await subscribe(['version.published']);
      const version = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.agentId}/versions`, { source: 'empty' }, org.headers),
        201,
        'version',
      ).body;
      await t.http.post(`/management/v1/agents/${agent.agentId}/versions/${version.id}/push`, { bundle: shopBundle }, org.headers);
      expectStatus(
        await t.http.post(`/management/v1/agents/${agent.agentId}/versions/${version.id}/publish`, undefined, org.headers),
        200,
        'publish',
      );
      const [published] = await receiver.waitFor(hook.path, 1);
      expect(published!.payload).toMatchObject({
        type: 'version.published',
        project_id: projectId,
        thread_id: null,
        sequence: null,
        data: { agent_id: agent.agentId, version_id: version.id, version_tag: expect.any(String), reason: 'publish' },
      });
    });

    it('delivers version.published when a rename re-publishes the live revision', async () => {
      const hook = await subscribe(['version.published']);
      const renamed = await t.http.patch(`/management/v1/agents/${agent.agentId}`, { name: 'Renamed shop' }, org.headers);
      expectStatus(renamed, 200, 'rename');
      const [published] = await receiver.waitFor(hook.path, 1);
      expect(published!.payload).toMatchObject({
        type: 'version.published',
        project_id: projectId,
        thread_id: null,
        sequence: null,
        data: {
          agent_id: agent.agentId,
          version_id: renamed.body.live_version_id,
          version_tag: renamed.body.live_version_tag,
          reason: 'rename',
        },
      });
    });

    it('types every event type in the OpenAPI document (webhooks)', () => {
      expect([...schemas.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    });

    it('delivers thread.created and channel.message.status of a channel conversation', async () => {
      const hook = await subscribe(['thread.created', 'channel.message.status']);
      const started = await t.http.post(
        '/messaging/v1/channels/whatsapp/threads',
        { user_id: 'u-1', phone_number: '+15557654321' },
        agent.headers,
      );
      expect(started.status).toBe(201);
      const [created] = await receiver.waitFor(hook.path, 1, 'thread.created');
      const [status] = await receiver.waitFor(hook.path, 1, 'channel.message.status');
      expect(created!.payload.data).toMatchObject({ thread_id: started.body.thread_id, channel: 'whatsapp' });
      expect(status!.payload).toMatchObject({
        thread_id: started.body.thread_id,
        sequence: 2,
        data: { thread_id: started.body.thread_id, channel: 'whatsapp', status: 'sent', error: null },
      });
    });

    it('sends nothing for another project’s agent, and nothing to a disabled endpoint', async () => {
      const disabled = await subscribe(['turn.completed']);
      await t.http.patch(`${webhooksOf(projectId)}/${disabled.id}`, { enabled: false }, org.headers);
      const otherProject = expectStatus(await t.http.post('/management/v1/projects', { name: 'Other' }, org.headers), 201, 'project').body;
      const path = receiver.path();
      const other = expectStatus(
        await t.http.post(webhooksOf(otherProject.id), { url: `${receiver.url}${path}`, events: ['turn.completed'] }, org.headers),
        201,
        'subscribe',
      );
      receiver.trust(path, other.body.secret);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      expect(await t.dataSource.query(`SELECT id FROM webhook_deliveries`)).toEqual([]);
    });
  });

  describe('delivery', () => {
    it('retries after a 500 with the same webhook-id, and logs both attempts', async () => {
      const hook = await subscribe(['turn.completed'], [500]);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      const [first, second] = await receiver.waitFor(hook.path, 2);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      const [delivery] = await waitFor(async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'delivered' && rows;
      }, 'the delivery to be recorded delivered');
      expect(delivery).toMatchObject({
        webhook_id: first!.headers['webhook-id'],
        event_type: 'turn.completed',
        status: 'delivered',
        attempts: 2,
        last_status_code: 200,
        next_attempt_at: null,
        attempt_log: [
          expect.objectContaining({ attempt: 1, status_code: 500, error: 'the receiver answered 500', response_body: 'nope' }),
          expect.objectContaining({ attempt: 2, status_code: 200, error: null, latency_ms: expect.any(Number) }),
        ],
      });
      const [endpoint] = await t.dataSource.query(`SELECT consecutive_failures, enabled FROM webhook_endpoints WHERE id = $1`, [hook.id]);
      expect(endpoint).toEqual({ consecutive_failures: 0, enabled: true });
    });

    it('retries after a timeout with the same webhook-id', async () => {
      const hook = await subscribe(['turn.completed'], ['hang']);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      const [first, second] = await receiver.waitFor(hook.path, 2);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      const [delivery] = await waitFor(async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'delivered' && rows;
      }, 'the delivery to be recorded delivered');
      expect(delivery.attempt_log).toEqual([
        expect.objectContaining({ attempt: 1, status_code: null, error: 'timeout' }),
        expect.objectContaining({ attempt: 2, status_code: 200 }),
      ]);
    });

    it('disables the endpoint on 410 Gone and sends it nothing more', async () => {
      const hook = await subscribe(['turn.completed'], [410]);
      const disabled: WebhookDisabled[] = [];
      const stop = t.app.get(EventBus).on('webhook.disabled', (event) => disabled.push(event));
      try {
        expectStatus(await send({ text: 'hello' }), 200, 'send');
        const endpoint = await waitFor(async () => {
          const res = await t.http.get(`${webhooksOf(projectId)}/${hook.id}`, org.headers);
          return res.body.enabled === false && res.body;
        }, 'the endpoint to be disabled');
        expect(endpoint.disabled_reason).toMatch(/410/);
        expect(disabled).toEqual([expect.objectContaining({ webhookId: hook.id, reason: 'gone', organizationId: org.id })]);
        const [delivery] = await deliveries(hook.id);
        expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410, next_attempt_at: null });
        expectStatus(await send({ text: 'anyone there?' }), 200, 'send');
        expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries`)).toEqual([{ n: 1 }]);
        expect(receiver.at(hook.path)).toHaveLength(1);
      } finally {
        stop();
      }
    });

    it('disables the endpoint after N failed attempts in a row and announces webhook.disabled', async () => {
      const hook = await subscribe(['turn.completed'], [500, 500, 500, 500, 500, 500, 500]);
      const disabled: WebhookDisabled[] = [];
      const stop = t.app.get(EventBus).on('webhook.disabled', (event) => disabled.push(event));
      try {
        expectStatus(await send({ text: 'hello' }), 200, 'send');
        await waitFor(() => disabled.length > 0, 'webhook.disabled');
        expect(disabled).toEqual([
          { organizationId: org.id, projectId, webhookId: hook.id, reason: 'consecutive_failures', consecutiveFailures: 4 },
        ]);
        const [endpoint] = await t.dataSource.query(
          `SELECT enabled, consecutive_failures, disabled_reason FROM webhook_endpoints WHERE id = $1`,
          [hook.id],
        );
        expect(endpoint).toEqual({ enabled: false, consecutive_failures: 4, disabled_reason: 'disabled after 4 failed attempts in a row' });
        const record = await waitFor(async () => (await audited()).find((r) => r.action === 'webhook.disable'), 'the audit record');
        expect(record).toMatchObject({ actor_kind: 'system', resource_id: hook.id, text: expect.stringContaining('consecutive_failures') });
        const [delivery] = await deliveries(hook.id);
        expect(delivery).toMatchObject({ status: 'failed', attempts: 4 });
        expect(receiver.at(hook.path)).toHaveLength(4);

        // Re-enabling starts the count over.
        const enabled = await t.http.patch(`${webhooksOf(projectId)}/${hook.id}`, { enabled: true }, org.headers);
        expect(enabled.body).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
      } finally {
        stop();
      }
    });

    it('lists deliveries and redelivers one with the same webhook-id', async () => {
      const hook = await subscribe(['turn.completed']);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      const [first] = await receiver.waitFor(hook.path, 1);
      const [delivery] = await waitFor(async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'delivered' && rows;
      }, 'delivered');
      expect(delivery).toMatchObject({ attempts: 1, payload: first!.payload, webhook_id: first!.headers['webhook-id'] });

      const again = await t.http.post(`${webhooksOf(projectId)}/${hook.id}/deliveries/${delivery.id}/redeliver`, undefined, org.headers);
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ id: delivery.id, status: 'pending' });
      const [, second] = await receiver.waitFor(hook.path, 2);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      await waitFor(async () => (await deliveries(hook.id))[0]?.attempts === 2, 'the redelivery to be logged');

      const missing = await t.http.post(`${webhooksOf(projectId)}/${hook.id}/deliveries/${newId()}/redeliver`, undefined, org.headers);
      expect(missing.status).toBe(404);
      expect((await audited()).map((r) => [r.action, r.resource_id])).toEqual([
        ['webhook.create', hook.id],
        ['webhook.redeliver', delivery.id],
      ]);
      const page = await t.http.get(`${webhooksOf(projectId)}/${hook.id}/deliveries?page[size]=1`, org.headers);
      expect(page.body.results).toHaveLength(1);
      expect(page.body.meta.has_more).toBe(false);
    });

    it("erasing a thread deletes its deliveries (their bodies hold the turns' text), and only its own", async () => {
      const hook = await subscribe(['turn.completed']);
      const erased = expectStatus(await send({ text: 'my card number is in this message' }), 200, 'send').body;
      const kept = expectStatus(await send({ text: 'another conversation', user_id: 'u2' }), 200, 'send').body;
      await receiver.waitFor(hook.path, 2);
      const ofThread = async (threadId: string) =>
        (await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE thread_id = $1`, [threadId]))[0].n;
      expect([await ofThread(erased.thread_id), await ofThread(kept.thread_id)]).toEqual([1, 1]);

      expect((await t.http.delete(`/management/v1/threads/${erased.thread_id}`, org.headers)).status).toBe(204);
      expect([await ofThread(erased.thread_id), await ofThread(kept.thread_id)]).toEqual([0, 1]);
      const [record] = await t.dataSource.query(`SELECT before FROM audit_events WHERE action = 'thread.delete' AND organization_id = $1`, [
        org.id,
      ]);
      expect(record.before).toMatchObject({ threads: 1, webhook_deliveries: 1 });
    });

    it('delivers an outbox row whose enqueue was lost (the sweeper)', async () => {
      const hook = await subscribe(['turn.completed']);
      const id = newId();
      const body = JSON.stringify({ type: 'turn.completed', timestamp: new Date().toISOString(), data: { lost: true } });
      handMade.add(`msg_${id}`);
      // As a crash between the commit and the enqueue leaves it: committed, due, and in no queue.
      await t.dataSource.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event_type, body, next_attempt_at)
         VALUES ($1, $2, $3, 'turn.completed', $4, now() - interval '1 second')`,
        [id, hook.id, org.id, body],
      );
      const [received] = await receiver.waitFor(hook.path, 1);
      expect(received!.headers['webhook-id']).toBe(`msg_${id}`);
      expect(received!.body).toBe(body);
    });
  });

  describe('secret rotation', () => {
    it('signs with the old and the new secret during the overlap; each verifies on its own', async () => {
      const hook = await subscribe(['turn.completed']);
      const rotated = await t.http.post(`${webhooksOf(projectId)}/${hook.id}/rotate-secret`, { overlap_seconds: 3600 }, org.headers);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(hook.secret);
      expect(rotated.body.previous_secret_expires_at).toEqual(expect.any(String));
      receiver.trust(hook.path, hook.secret, rotated.body.secret);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      const [received] = await receiver.waitFor(hook.path, 1);
      expect(received!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
      expect(received!.verifiedWith.sort()).toEqual([hook.secret, rotated.body.secret].sort());
    });

    it('without an overlap, only the new secret verifies', async () => {
      const hook = await subscribe(['turn.completed']);
      const rotated = await t.http.post(`${webhooksOf(projectId)}/${hook.id}/rotate-secret`, { overlap_seconds: 0 }, org.headers);
      expect(rotated.body.previous_secret_expires_at).toBeNull();
      receiver.trust(hook.path, hook.secret, rotated.body.secret);
      expectStatus(await send({ text: 'hello' }), 200, 'send');
      const [received] = await receiver.waitFor(hook.path, 1);
      expect(received!.headers['webhook-signature']).toMatch(/^v1,\S+$/);
      expect(received!.verifiedWith).toEqual([rotated.body.secret]);
    });
  });
});
