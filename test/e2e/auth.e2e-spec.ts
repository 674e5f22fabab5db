import { ModulesContainer, Reflector } from '@nestjs/core';
import { SignJWT } from 'jose';
import { RedisService } from '../../src/common/redis/redis.service.js';
import { AUTH_CREDENTIALS, IS_PUBLIC } from '../../src/modules/auth/decorators/auth.metadata.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const TOKEN = '/management/v1/auth/token';

describe('authentication', () => {
  let t: TestApp;
  /** The same service behind a trusted proxy, with a per-IP login limit of 3 (same database and Redis keys as `t`). */
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    proxied = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '3', TRUST_PROXY: 'true' });
  });
  beforeEach(() => t.reset());
  afterAll(async () => {
    await proxied?.close();
    await t?.close();
  });

  describe('POST /management/v1/auth/token with grant_type=publishable_key', () => {
    it('exchanges a publishable key for an agent-scoped Bearer token', async () => {
      const org = await t.factory.org();
      const agent = await t.factory.agent(org);
      const { key } = await t.factory.publishableKey(agent);
      const res = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        agent_id: agent.id,
        organization_id: org.id,
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('accepts an application/x-www-form-urlencoded body', async () => {
      const org = await t.factory.org();
      const { key } = await t.factory.publishableKey(await t.factory.agent(org));
      const res = await t.http.request('POST', TOKEN, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: new URLSearchParams({ grant_type: 'publishable_key', publishable_key: key }).toString(),
      });
      expect(res.status).toBe(200);
      expect(res.body.token_type).toBe('Bearer');
    });

    it('answers an unknown or revoked key 400 invalid_grant / invalid_publishable_key (OAuth body)', async () => {
      const org = await t.factory.org();
      const pk = await t.factory.publishableKey(await t.factory.agent(org));
      const unknown = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: 'pk_unknown' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
      await t.factory.revokePublishableKey(pk.id);
      const revoked = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: pk.key });
      expect(revoked.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
    });

    it('answers a missing field invalid_request and an unknown grant unsupported_grant_type', async () => {
      const missing = await t.http.post(TOKEN, { grant_type: 'publishable_key' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
      expect(missing.body.error_description).toContain('publishable_key');
      const unsupported = await t.http.post(TOKEN, { grant_type: 'client_credentials' });
      expect(unsupported.status).toBe(400);
      expect(unsupported.body.error).toBe('unsupported_grant_type');
    });

    it('enforces the allowed origins of the key', async () => {
      const org = await t.factory.org();
      const { key } = await t.factory.publishableKey(await t.factory.agent(org), { origins: ['https://shop.example'] });
      const allowed = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key }, { origin: 'https://shop.example' });
      expect(allowed.status).toBe(200);
      const denied = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key }, { origin: 'https://evil.example' });
      expect(denied.body).toEqual({ error: 'invalid_grant', error_description: 'origin_not_allowed' });
      const noOrigin = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key });
      expect(noOrigin.status).toBe(400);
    });

    it('enforces the allowed IP ranges of the key (v4 and v6)', async () => {
      const org = await t.factory.org();
      const agent = await t.factory.agent(org);
      const inside = await t.factory.publishableKey(agent, { ipRanges: ['127.0.0.0/8', '::1/128'] });
      const outside = await t.factory.publishableKey(agent, { ipRanges: ['10.0.0.0/8', '2001:db8::/32'] });
      expect((await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: inside.key })).status).toBe(200);
      const denied = await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: outside.key });
      expect(denied.body).toEqual({ error: 'invalid_grant', error_description: 'ip_not_allowed' });
    });
  });

  describe('POST /management/v1/auth/token with grant_type=password', () => {
    it('issues a login-session token that serves management', async () => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const res = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token_type: 'Bearer', agent_id: null, organization_id: org.id });
      const projects = await t.http.get('/management/v1/projects', { authorization: `Bearer ${res.body.access_token}` });
      expect(projects.status).toBe(200);
    });

    it('scopes a session to an agent of the organization only', async () => {
      const org = await t.factory.org();
      const other = await t.factory.org();
      const user = await t.factory.user(org);
      const own = await t.factory.agent(org);
      const foreign = await t.factory.agent(other);
      const scoped = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password, agent_id: own.id });
      expect(scoped.body.agent_id).toBe(own.id);
      const denied = await t.http.post(TOKEN, {
        grant_type: 'password',
        username: user.email,
        password: user.password,
        agent_id: foreign.id,
      });
      expect(denied.body).toEqual({ error: 'invalid_grant', error_description: 'unknown_agent' });
    });

    it('logs in a user whose hash the argon2 package wrote before, and stores a scrypt hash in its place', async () => {
      // Written by argon2@0.45.1 (the project's hash until then) with its defaults, for this password.
      const legacy = '$argon2id$v=19$m=65536,p=4,t=3$93T6nqvDBLFBhi/x/lK/rQ$Iom7tQhoWP0jjh8DVTaICuG4NpMQvWDROMlvqN7F2k4';
      const org = await t.factory.org();
      const user = await t.factory.user(org, 'legacy-password-1', legacy);
      const storedHash = async () =>
        ((await t.dataSource.query('SELECT password_hash FROM users WHERE id = $1', [user.id])) as Array<{ password_hash: string }>)[0]!
          .password_hash;

      const wrong = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: 'legacy-password-2' });
      expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_credentials' });
      expect(await storedHash()).toBe(legacy);

      const first = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password });
      expect(first.status).toBe(200);
      const rehashed = await storedHash();
      expect(rehashed).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);

      const again = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password });
      expect(again.status).toBe(200);
      expect(await storedHash()).toBe(rehashed);
    });

    it('rejects a wrong password or unknown user with invalid_grant', async () => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const wrong = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: 'nope-nope' });
      expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_credentials' });
      const unknown = await t.http.post(TOKEN, { grant_type: 'password', username: 'ghost@example.test', password: 'nope-nope' });
      expect(unknown.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_credentials' });
    });

    describe('brute-force protection', () => {
      const login = (username: string, password: string, headers: Record<string, string> = {}) =>
        t.http.post(TOKEN, { grant_type: 'password', username, password }, headers);

      it('locks an account after 10 failed attempts (429 + Retry-After, the right password too); another account is unaffected', async () => {
        const org = await t.factory.org();
        const victim = await t.factory.user(org);
        const bystander = await t.factory.user(org);
        for (let attempt = 1; attempt <= 10; attempt += 1) {
          expect((await login(victim.email, `wrong-${attempt}`)).body).toEqual({
            error: 'invalid_grant',
            error_description: 'invalid_credentials',
          });
        }
        const locked = await login(victim.email, 'wrong-11');
        expect(locked.status).toBe(429);
        expect(locked.body).toEqual({ error: 'rate_limited', error_description: 'too_many_failed_logins' });
        expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
        const right = await login(victim.email.toUpperCase(), victim.password);
        expect(right.status).toBe(429);
        expect(right.body.error).toBe('rate_limited');
        expect((await login(bystander.email, bystander.password)).status).toBe(200);
      });

      it('lets no more than 10 of 30 concurrent wrong passwords reach the password check (counted before checking)', async () => {
        const org = await t.factory.org();
        const victim = await t.factory.user(org);
        const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim.email, `wrong-${i}`)));
        const statuses = answers.map((res) => res.status);
        expect(statuses.filter((status) => status === 400)).toHaveLength(10);
        expect(statuses.filter((status) => status === 429)).toHaveLength(20);
      });

      it('counts unknown emails like known ones, so a lockout does not reveal which accounts exist', async () => {
        for (let attempt = 1; attempt <= 10; attempt += 1) expect((await login('ghost@example.test', 'nope-nope')).status).toBe(400);
        expect((await login('ghost@example.test', 'nope-nope')).status).toBe(429);
      });

      it('resets the account counter on success', async () => {
        const org = await t.factory.org();
        const user = await t.factory.user(org);
        for (let round = 0; round < 2; round += 1) {
          for (let attempt = 1; attempt <= 9; attempt += 1) expect((await login(user.email, 'wrong-password')).status).toBe(400);
          expect((await login(user.email, user.password)).status).toBe(200);
        }
      });

      it('limits failed attempts per client IP across accounts; other IPs are unaffected', async () => {
        const org = await t.factory.org();
        const user = await t.factory.user(org);
        const from = (ip: string) => ({ 'x-forwarded-for': ip });
        for (let attempt = 1; attempt <= 3; attempt += 1) {
          const res = await proxied.http.post(
            TOKEN,
            { grant_type: 'password', username: `nobody-${attempt}@example.test`, password: 'nope-nope' },
            from('203.0.113.9'),
          );
          expect(res.status).toBe(400);
        }
        const blocked = await proxied.http.post(
          TOKEN,
          { grant_type: 'password', username: user.email, password: user.password },
          from('203.0.113.9'),
        );
        expect(blocked.status).toBe(429);
        expect(blocked.body).toEqual({ error: 'rate_limited', error_description: 'too_many_failed_logins' });
        expect(
          (await proxied.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password }, from('198.51.100.4')))
            .status,
        ).toBe(200);
      });
    });
  });

  describe('surface rules', () => {
    it('rejects a publishable-key token on management with 401 unauthorized', async () => {
      const org = await t.factory.org();
      const { key } = await t.factory.publishableKey(await t.factory.agent(org));
      const token = (await t.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: key })).body.access_token;
      const res = await t.http.get('/management/v1/projects', { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it('rejects an agent API key on management with 401', async () => {
      const org = await t.factory.org();
      const { key } = await t.factory.agentApiKey(await t.factory.agent(org));
      const res = await t.http.get('/management/v1/projects', { 'x-agent-api-key': key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it('rejects a wrong organization key, a malformed and an expired token with 401', async () => {
      expect((await t.http.get('/management/v1/projects', { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
      expect((await t.http.get('/management/v1/projects', { authorization: 'Bearer not.a.jwt' })).status).toBe(401);
      expect((await t.http.get('/management/v1/projects', { authorization: 'Basic abc' })).status).toBe(401);
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const expired = await new SignJWT({ typ: 'session', org: org.id, uid: user.id, agt: null })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('agent-service')
        .setIssuedAt(1_700_000_000)
        .setExpirationTime(1_700_000_060)
        .sign(new TextEncoder().encode(t.config.auth.jwtSecret));
      const res = await t.http.get('/management/v1/projects', { authorization: `Bearer ${expired}` });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it.each([
      ['without exp', (jwt: SignJWT) => jwt.setIssuer('agent-service').setIssuedAt()],
      ['without iat', (jwt: SignJWT) => jwt.setIssuer('agent-service').setExpirationTime('1h')],
      ['without an issuer', (jwt: SignJWT) => jwt.setIssuedAt().setExpirationTime('1h')],
      ['from another issuer', (jwt: SignJWT) => jwt.setIssuer('someone-else').setIssuedAt().setExpirationTime('1h')],
    ])('rejects a token signed with the service secret %s (401)', async (_case, shape) => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const token = await shape(
        new SignJWT({ typ: 'session', org: org.id, uid: user.id, agt: null }).setProtectedHeader({ alg: 'HS256' }),
      ).sign(new TextEncoder().encode(t.config.auth.jwtSecret));
      const res = await t.http.get('/management/v1/projects', { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it.each([
      ['an unknown typ', { typ: 'admin' }],
      ['no typ', { typ: undefined }],
      ['a session without uid', { uid: undefined }],
      ['an organization that is not a string', { org: 42 }],
    ])('rejects a token signed with the service secret carrying %s (401)', async (_case, claims) => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const token = await new SignJWT({ typ: 'session', org: org.id, uid: user.id, agt: null, ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('agent-service')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(t.config.auth.jwtSecret));
      expect((await t.http.get('/management/v1/projects', { authorization: `Bearer ${token}` })).status).toBe(401);
    });

    it('rejects a token signed with another secret', async () => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const forged = await new SignJWT({ typ: 'session', org: org.id, uid: user.id, agt: null })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('agent-service')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
      expect((await t.http.get('/management/v1/projects', { authorization: `Bearer ${forged}` })).status).toBe(401);
    });
  });

  describe('with Redis unreachable', () => {
    it('keeps serving authenticated requests and logins: rate limiting and login counting fail open', async () => {
      const org = await t.factory.org();
      const user = await t.factory.user(org);
      const redis = t.app.get(RedisService);
      redis.client.disconnect();
      try {
        const res = await t.http.get('/management/v1/projects', org.headers);
        expect(res.status).toBe(200);
        const login = await t.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password });
        expect(login.status).toBe(200);
        expect((await t.http.get('/management/v1/projects', { authorization: `Bearer ${login.body.access_token}` })).status).toBe(200);
        expect(redis.failOpenCounts.rate_limit).toBeGreaterThan(0);
        expect(redis.failOpenCounts.login_attempts).toBeGreaterThan(0);
      } finally {
        await redis.client.connect();
      }
    });
  });

  it('declares credentials (@Auth) or @Public on every route', () => {
    const reflector = t.app.get(Reflector);
    const undeclared: string[] = [];
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((module) => [...module.controllers.values()]);
    expect(controllers.length).toBeGreaterThan(2);
    for (const wrapper of controllers) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function' || !Reflect.getMetadata('path', handler)) continue;
        const targets = [handler, controller];
        const declared = reflector.getAllAndOverride(IS_PUBLIC, targets) || reflector.getAllAndOverride(AUTH_CREDENTIALS, targets);
        if (!declared) undeclared.push(`${controller.name}.${name}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
