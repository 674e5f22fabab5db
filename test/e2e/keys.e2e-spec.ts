import { AuthService } from '../../src/modules/auth/auth.service.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { requestFrom } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connect } from '../support/ws-client.js';

const UNKNOWN_ID = '0123456789abcdef01234567';
const field = (res: { body: { error: { details?: Array<{ field: string }> } } }) => (res.body.error.details ?? []).map((d) => d.field);

describe('agent keys (management)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  async function setup() {
    const org = await t.factory.org();
    const agent = await t.factory.agent(org);
    return { org, agent };
  }
  const pks = (agentId: string) => `/management/v1/agents/${agentId}/publishable-keys`;
  const aks = (agentId: string) => `/management/v1/agents/${agentId}/api-keys`;
  const exchange = (key: string, headers: Record<string, string> = {}) =>
    t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key }, headers);

  describe('publishable keys', () => {
    it('creates a key shown once (201) that exchanges for a token, and lists it without the secret', async () => {
      const { org, agent } = await setup();
      const res = await t.http.post(
        pks(agent.id),
        {
          allowed_origins: ['https://shop.example.com', 'http://localhost:3000/'],
          allowed_ip_ranges: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'],
        },
        org.headers,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        publishable_key: expect.stringMatching(/^pk_/),
        key_prefix: res.body.publishable_key.slice(0, 12),
        allowed_origins: ['https://shop.example.com', 'http://localhost:3000'],
        allowed_ip_ranges: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7/32'],
        created_at: expect.any(String),
      });
      const list = await t.http.get(pks(agent.id), org.headers);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([
        {
          id: res.body.id,
          key_prefix: res.body.key_prefix,
          allowed_origins: res.body.allowed_origins,
          allowed_ip_ranges: res.body.allowed_ip_ranges,
          created_at: res.body.created_at,
        },
      ]);
      expect(list.text).not.toContain(res.body.publishable_key);

      const open = await t.http.post(pks(agent.id), undefined, org.headers);
      expect(open.status).toBe(201);
      expect(open.body).toMatchObject({ allowed_origins: [], allowed_ip_ranges: [] });
      const token = await exchange(open.body.publishable_key);
      expect(token.status).toBe(200);
      expect(token.body).toMatchObject({ token_type: 'Bearer', agent_id: agent.id, organization_id: org.id });
    });

    it('enforces the allowed origins on the exchange', async () => {
      const { org, agent } = await setup();
      const key = (await t.http.post(pks(agent.id), { allowed_origins: ['https://shop.example.com'] }, org.headers)).body.publishable_key;
      expect((await exchange(key, { origin: 'https://shop.example.com' })).status).toBe(200);
      const denied = await exchange(key, { origin: 'https://evil.example' });
      expect(denied.status).toBe(400);
      expect(denied.body.error).toBe('invalid_grant');
    });

    it("enforces the key's IP ranges on every request made with a token minted from it (JSON, SSE, WebSocket)", async () => {
      const org = await t.factory.org();
      const { agentId } = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const key = expectStatus(await t.http.post(pks(agentId), { allowed_ip_ranges: ['127.0.0.1'] }, org.headers), 201, 'key').body;
      // Minted from 127.0.0.1, the address the test client connects from.
      const token = expectStatus(await exchange(key.publishable_key), 200, 'exchange').body.access_token as string;
      const headers = { authorization: `Bearer ${token}` };
      const send = { text: 'show me trail shoes', user_id: 'u-1' };
      const interactions = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM interactions`))[0].n);

      expect((await t.http.post('/messaging/v1/messages', send, headers)).status).toBe(200);
      const refused = [
        await requestFrom('127.0.0.2', `${t.baseUrl}/messaging/v1/messages`, 'POST', { body: send, headers }),
        await requestFrom('127.0.0.2', `${t.baseUrl}/messaging/v1/messages/stream`, 'POST', { body: send, headers }),
        await requestFrom('127.0.0.2', `${t.baseUrl}/messaging/v1/welcome-message`, 'GET', { headers }),
      ];
      expect(refused.map((res) => [res.status, res.body?.error?.code])).toEqual(refused.map(() => [403, 'forbidden']));
      expect(refused[0]!.body.error.message).toBe('Address 127.0.0.2 is not allowed for this publishable key');
      expect(await interactions()).toBe(1);

      const wsUrl = `${t.baseUrl.replace('http', 'ws')}/messaging/v1/session`;
      const outside = connect(wsUrl, { headers, localAddress: '127.0.0.2' });
      expect(await outside.closed).toEqual({ code: 1008, reason: 'Address 127.0.0.2 is not allowed for this publishable key' });
      const inside = connect(wsUrl, { headers });
      await inside.next((frame) => frame.type === 'ready');
      inside.socket.close();
      expect((await t.http.post('/messaging/v1/messages', send, headers)).status).toBe(200);
    });

    it("enforces the key's allowed origins on every request that carries an Origin", async () => {
      const org = await t.factory.org();
      const { agentId } = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const key = expectStatus(
        await t.http.post(pks(agentId), { allowed_origins: ['https://shop.example'] }, org.headers),
        201,
        'key',
      ).body;
      const token = expectStatus(await exchange(key.publishable_key, { origin: 'https://shop.example' }), 200, 'exchange').body
        .access_token as string;
      const send = { text: 'show me trail shoes', user_id: 'u-1' };
      const from = (origin: string) => t.http.post('/messaging/v1/messages', send, { authorization: `Bearer ${token}`, origin });
      expect((await from('https://shop.example')).status).toBe(200);
      const denied = await from('https://evil.example');
      expect([denied.status, denied.body.error.code]).toEqual([403, 'forbidden']);
    });

    it('revokes a key (204): no more exchanges, and tokens minted before stop working at once', async () => {
      const { org, agent } = await setup();
      const created = (await t.http.post(pks(agent.id), {}, org.headers)).body;
      const other = (await t.http.post(pks(agent.id), {}, org.headers)).body;
      const token = (await exchange(created.publishable_key)).body.access_token as string;
      const auth = t.app.get(AuthService);
      await expect(auth.authenticateBearer(token)).resolves.toMatchObject({ kind: 'clientToken', agentId: agent.id });

      const res = await t.http.delete(`${pks(agent.id)}/${created.id}`, org.headers);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const denied = await exchange(created.publishable_key);
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
      await expect(auth.authenticateBearer(token)).rejects.toMatchObject({ status: 401 });

      const list = await t.http.get(pks(agent.id), org.headers);
      expect(list.body.results.map((k: { id: string }) => k.id)).toEqual([other.id]);
      expect((await exchange(other.publishable_key)).status).toBe(200);
      expect((await t.http.delete(`${pks(agent.id)}/${created.id}`, org.headers)).status).toBe(404);
    });

    it.each([
      [{ allowed_origins: 'https://a.example' }, 'allowed_origins'],
      [{ allowed_origins: ['https://shop.example.com/path'] }, 'allowed_origins[0]'],
      [{ allowed_origins: ['https://ok.example', 'ftp://files.example'] }, 'allowed_origins[1]'],
      [{ allowed_origins: ['shop.example.com'] }, 'allowed_origins[0]'],
      [{ allowed_ip_ranges: ['10.0.0.0/33'] }, 'allowed_ip_ranges[0]'],
      [{ allowed_ip_ranges: ['10.0.0.0/8', 'not-an-ip'] }, 'allowed_ip_ranges[1]'],
      [{ allowed_ip_ranges: ['10.0.0/8'] }, 'allowed_ip_ranges[0]'],
      [{ allowed_ip_ranges: ['2001:db8::/129'] }, 'allowed_ip_ranges[0]'],
      [{ allowed_ip_ranges: [5] }, 'allowed_ip_ranges'],
      [{ agent_id: UNKNOWN_ID }, 'agent_id'],
    ])('answers 422 for %j naming %s and creates nothing', async (body, name) => {
      const { org, agent } = await setup();
      const res = await t.http.post(pks(agent.id), body, org.headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(field(res)).toContain(name);
      expect((await t.http.get(pks(agent.id), org.headers)).body.results).toHaveLength(0);
    });

    it('answers 401 without credentials and 404 across organizations on every route', async () => {
      const { org } = await setup();
      const other = await setup();
      const theirs = await t.factory.publishableKey(other.agent);
      expect((await t.http.post(pks(other.agent.id), {})).status).toBe(401);
      expect((await t.http.get(pks(other.agent.id))).status).toBe(401);
      expect((await t.http.delete(`${pks(other.agent.id)}/${theirs.id}`)).status).toBe(401);
      for (const res of [
        await t.http.post(pks(other.agent.id), {}, org.headers),
        await t.http.get(pks(other.agent.id), org.headers),
        await t.http.delete(`${pks(other.agent.id)}/${theirs.id}`, org.headers),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      // A key of another agent under my agent's path is 404 too.
      const mine = await t.factory.agent(org);
      expect((await t.http.delete(`${pks(mine.id)}/${theirs.id}`, org.headers)).status).toBe(404);
      expect((await exchange(theirs.key)).status).toBe(200);
      expect(field(await t.http.delete(`${pks(mine.id)}/nope`, org.headers))).toEqual(['keyId']);
      expect(field(await t.http.get(pks('nope'), org.headers))).toEqual(['agentId']);
    });
  });

  describe('agent API keys', () => {
    it('creates (201, shown once), lists without the secret, and revokes (204) a key that then stops authenticating', async () => {
      const { org, agent } = await setup();
      const res = await t.http.post(aks(agent.id), undefined, org.headers);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        api_key: expect.stringMatching(/^agk_/),
        key_prefix: res.body.api_key.slice(0, 12),
        created_at: expect.any(String),
      });
      const list = await t.http.get(aks(agent.id), org.headers);
      expect(list.body.results).toEqual([{ id: res.body.id, key_prefix: res.body.key_prefix, created_at: res.body.created_at }]);
      expect(list.text).not.toContain(res.body.api_key);

      const auth = t.app.get(AuthService);
      await expect(auth.authenticateAgentKey(res.body.api_key)).resolves.toMatchObject({ kind: 'agentKey', agentId: agent.id });
      expect((await t.http.delete(`${aks(agent.id)}/${res.body.id}`, org.headers)).status).toBe(204);
      await expect(auth.authenticateAgentKey(res.body.api_key)).rejects.toMatchObject({ status: 401 });
      expect((await t.http.get(aks(agent.id), org.headers)).body.results).toHaveLength(0);
      expect((await t.http.delete(`${aks(agent.id)}/${res.body.id}`, org.headers)).status).toBe(404);
    });

    it('answers 401, 404 across organizations, 422 for malformed ids and unknown fields', async () => {
      const { org, agent } = await setup();
      const other = await setup();
      const theirs = await t.factory.agentApiKey(other.agent);
      expect((await t.http.post(aks(agent.id))).status).toBe(401);
      expect((await t.http.get(aks(agent.id))).status).toBe(401);
      expect((await t.http.delete(`${aks(other.agent.id)}/${theirs.id}`)).status).toBe(401);
      expect((await t.http.post(aks(other.agent.id), undefined, org.headers)).status).toBe(404);
      expect((await t.http.get(aks(other.agent.id), org.headers)).status).toBe(404);
      expect((await t.http.delete(`${aks(other.agent.id)}/${theirs.id}`, org.headers)).status).toBe(404);
      expect((await t.http.delete(`${aks(agent.id)}/${theirs.id}`, org.headers)).status).toBe(404);
      expect((await t.http.get(aks(other.agent.id), other.org.headers)).body.results).toHaveLength(1);
      expect(field(await t.http.delete(`${aks(agent.id)}/xyz`, org.headers))).toEqual(['keyId']);
      expect(field(await t.http.get(`${aks(agent.id)}?page[size]=0`, org.headers))).toEqual(['page[size]']);
    });
  });

  it('documents the key routes in the OpenAPI document', async () => {
    const doc = await t.http.get('/openapi.json');
    expect(Object.keys(doc.body.paths['/management/v1/agents/{agentId}/publishable-keys'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(doc.body.paths['/management/v1/agents/{agentId}/publishable-keys/{keyId}']).toHaveProperty('delete');
    expect(Object.keys(doc.body.paths['/management/v1/agents/{agentId}/api-keys'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.body.paths['/management/v1/agents/{agentId}/api-keys/{keyId}']).toHaveProperty('delete');
    expect(doc.body.components.schemas.CreatedPublishableKeyResponseDto.properties).toHaveProperty('publishable_key');
  });
});
