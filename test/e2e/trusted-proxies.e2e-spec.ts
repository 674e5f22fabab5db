import { createTestApp, type TestApp } from '../support/test-app.js';

const TOKEN = '/management/v1/auth/token';
const RESTRICTED = '198.51.100.0/24';

/**
 * TRUST_PROXY names the balancers in front (docs/operations.md, "Behind a load balancer"). The test client connects
 * from 127.0.0.1: to `direct` that is an unknown peer (only 10.9.9.9 is trusted), to `balanced` it is the balancer
 * (loopback and 10.0.0.0/8 are trusted, as a chain of two proxies would be).
 */
describe('trusted proxies (TRUST_PROXY)', () => {
  let direct: TestApp;
  let balanced: TestApp;
  beforeAll(async () => {
    direct = await createTestApp({ TRUST_PROXY: '10.9.9.9', LOGIN_MAX_FAILURES_PER_IP: '2' });
    balanced = await createTestApp({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', LOGIN_MAX_FAILURES_PER_IP: '2' });
  });
  beforeEach(() => direct.reset());
  afterAll(async () => {
    await balanced?.close();
    await direct?.close();
  });

  async function restrictedKey(): Promise<string> {
    const org = await direct.factory.org();
    const agent = await direct.factory.agent(org);
    return (await direct.factory.publishableKey(agent, { ipRanges: [RESTRICTED] })).key;
  }

  const exchange = (app: TestApp, key: string, forwardedFor?: string) =>
    app.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key }, forwardedFor ? { 'x-forwarded-for': forwardedFor } : {});

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: a forged address gets no token', async () => {
    const key = await restrictedKey();
    for (const forged of ['198.51.100.7', '203.0.113.5, 198.51.100.7', '198.51.100.7, 10.9.9.9']) {
      const res = await exchange(direct, key, forged);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'ip_not_allowed' });
    }
  });

  it('behind a trusted proxy, uses the right-most untrusted X-Forwarded-For entry', async () => {
    const key = await restrictedKey();
    // The balancer appended what it saw (the right-most entry); what the client wrote before it changes nothing.
    expect((await exchange(balanced, key, '198.51.100.7')).status).toBe(200);
    expect((await exchange(balanced, key, '203.0.113.5, 198.51.100.7')).status).toBe(200);
    const forged = await exchange(balanced, key, '198.51.100.7, 203.0.113.5');
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'invalid_grant', error_description: 'ip_not_allowed' });
    // Two trusted hops (an ingress at 10.1.2.3 behind the balancer): the client is the entry left of them.
    expect((await exchange(balanced, key, '203.0.113.5, 198.51.100.7, 10.1.2.3')).status).toBe(200);
    expect((await exchange(balanced, key, '198.51.100.7, 203.0.113.5, 10.1.2.3')).status).toBe(400);
    // Without the header, the client is the balancer itself (127.0.0.1): outside the range.
    expect((await exchange(balanced, key)).status).toBe(400);
  });

  describe('per-IP login limit (LOGIN_MAX_FAILURES_PER_IP=2)', () => {
    const fail = (app: TestApp, forwardedFor: string, n: number) =>
      app.http.post(
        TOKEN,
        { grant_type: 'password', username: `nobody-${n}@example.test`, password: 'wrong-password' },
        { 'x-forwarded-for': forwardedFor },
      );

    it('counts the client behind the balancer, not the balancer: one client at its limit leaves others alone', async () => {
      for (let n = 1; n <= 2; n += 1) expect((await fail(balanced, '203.0.113.9', n)).status).toBe(400);
      expect((await fail(balanced, '203.0.113.9', 3)).status).toBe(429);
      // A client that forges the blocked one's address as the left-most entry is still itself.
      expect((await fail(balanced, '203.0.113.9, 203.0.113.10', 4)).status).toBe(400);
    });

    it('a caller that rotates forged X-Forwarded-For values from an untrusted peer stays one client', async () => {
      for (let n = 1; n <= 2; n += 1) expect((await fail(direct, `203.0.113.${n}`, n)).status).toBe(400);
      const res = await fail(direct, '203.0.113.77', 3);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: 'rate_limited', error_description: 'too_many_failed_logins' });
    });
  });
});
