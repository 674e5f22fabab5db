// Webhook signing secrets at rest (docs/webhooks.md, "Secret storage"; docs/security.md, "Encryption at rest"):
// sealed with a configured key whose id is stored beside them, shown only at creation and rotation, rotatable keys,
// and the clear-text secrets of an existing database migrated.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WebhookSecretsSealed1732242700000 } from '../../src/database/migrations/1732242700000-webhook-secrets-sealed.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { startServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Receiver } from '../support/webhook-receiver.js';

const run = promisify(execFile);
const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;

/** Everything PostgreSQL holds about the organization's endpoints, and the audit log of its webhooks, as text. */
async function storedText(t: TestApp, organizationId: string): Promise<string> {
  const endpoints = await t.dataSource.query(`SELECT * FROM webhook_endpoints WHERE organization_id = $1`, [organizationId]);
  const audit = await t.dataSource.query(`SELECT before, after FROM audit_events WHERE action LIKE 'webhook.%'`);
  return JSON.stringify([endpoints, audit]);
}

/** The secret's key bytes as base64 (what a dump would show of it besides the `whsec_` text). */
const secretBytes = (secret: string) => secret.replace(/^whsec_/, '');

describe('webhook signing secrets at rest', () => {
  let receiver: Receiver;
  let t: TestApp | undefined;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    // Every delivery verified with the secret the receiver was given.
    expect(receiver.received.filter((r) => r.verifiedWith.length === 0).map((r) => r.path)).toEqual([]);
    receiver.received.length = 0;
  });
  afterAll(() => receiver.close());

  interface Setup {
    org: TestOrg;
    agent: LiveTestAgent;
    webhooks: string;
  }

  async function setup(app: TestApp): Promise<Setup> {
    const org = await app.factory.org();
    const agent = await liveAgent(app, org, { bundle: shopBundle, runtime: 'v1' });
    const projectId = expectStatus(await app.http.get(`/management/v1/agents/${agent.agentId}`, org.headers), 200, 'agent').body.project_id;
    return { org, agent, webhooks: `/management/v1/projects/${projectId}/webhooks` };
  }

  async function subscribe(app: TestApp, s: Setup): Promise<{ id: string; path: string; secret: string }> {
    const path = receiver.path();
    const res = expectStatus(
      await app.http.post(s.webhooks, { url: `${receiver.url}${path}`, events: ['turn.completed'] }, s.org.headers),
      201,
      'subscribe',
    );
    receiver.trust(path, res.body.secret);
    return { id: res.body.id, path, secret: res.body.secret };
  }

  /** A turn, and its delivery to `path` verified with the secret the receiver trusts. */
  async function delivered(app: TestApp, s: Setup, path: string): Promise<void> {
    const before = receiver.at(path, 'turn.completed').length;
    expectStatus(await app.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, s.agent.headers), 200, 'turn');
    const [last] = (await receiver.waitFor(path, before + 1, 'turn.completed')).slice(-1);
    expect(last!.verifiedWith.length).toBeGreaterThan(0);
  }

  /** Closes the running instance and starts one with `env` (same database): a restart with another configuration. */
  async function restart(env: Record<string, string>): Promise<TestApp> {
    await t?.close();
    t = undefined;
    t = await createTestApp(env);
    return t;
  }

  const keyIdOf = async (app: TestApp, id: string): Promise<string> =>
    (await app.dataSource.query(`SELECT secret_key_id FROM webhook_endpoints WHERE id = $1`, [id]))[0].secret_key_id;

  it('stores no secret in clear: not in the row, the listing, the endpoint or the audit log; it is shown at creation and rotation only', async () => {
    t = await createTestApp();
    await t.reset();
    const s = await setup(t);
    const hook = await subscribe(t, s);
    await delivered(t, s, hook.path);

    const rotated = expectStatus(
      await t.http.post(`${s.webhooks}/${hook.id}/rotate-secret`, { overlap_seconds: 3600 }, s.org.headers),
      200,
      'rotate',
    ).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    receiver.trust(hook.path, rotated.secret, hook.secret);
    await delivered(t, s, hook.path);

    const stored = await storedText(t, s.org.id);
    const shown = [
      (await t.http.get(s.webhooks, s.org.headers)).text,
      (await t.http.get(`${s.webhooks}/${hook.id}`, s.org.headers)).text,
      (await t.http.patch(`${s.webhooks}/${hook.id}`, { description: 'changed' }, s.org.headers)).text,
      (await t.http.get(`${s.webhooks}/${hook.id}/deliveries`, s.org.headers)).text,
    ].join('\n');
    for (const secret of [hook.secret, rotated.secret]) {
      expect(stored).not.toContain(secretBytes(secret));
      expect(shown).not.toContain(secretBytes(secret));
    }
    const [row] = await t.dataSource.query(`SELECT * FROM webhook_endpoints WHERE id = $1`, [hook.id]);
    expect(row).not.toHaveProperty('secret');
    expect(row).toMatchObject({ secret_key_id: 'jwt', previous_secret_key_id: 'jwt' });
  });

  it('never writes a secret to the service log: creation, rotation, deliveries, an unreadable secret', async () => {
    // Only the child process sends deliveries, so every attempt is in the log read here.
    t = await createTestApp({ WORKERS: 'off' });
    await t.reset();
    const s = await setup(t);
    const service = await startServiceProcess({ WORKERS: 'on', LOG_LEVEL: 'debug' });
    try {
      const path = receiver.path();
      const created = expectStatus(
        await service.http.post(s.webhooks, { url: `${receiver.url}${path}`, events: ['turn.completed'] }, s.org.headers),
        201,
        'subscribe',
      ).body;
      const rotated = expectStatus(
        await service.http.post(`${s.webhooks}/${created.id}/rotate-secret`, { overlap_seconds: 60 }, s.org.headers),
        200,
        'rotate',
      ).body;
      receiver.trust(path, rotated.secret, created.secret);
      expectStatus(await service.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, s.agent.headers), 200, 'turn');
      await receiver.waitFor(path, 1, 'turn.completed');
      // A secret no configured key opens (sealed for another endpoint): the failed attempt is logged, without it.
      await t.dataSource.query(
        `UPDATE webhook_endpoints SET secret_key_id = 'gone', previous_secret_key_id = NULL, previous_secret_sealed = NULL WHERE id = $1`,
        [created.id],
      );
      expectStatus(await service.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'again' }, s.agent.headers), 200, 'turn');
      await waitFor(() => service.logs.some((line) => line.includes('cannot be decrypted')), 'the logged failure');
      const logs = service.logs.join('\n');
      for (const secret of [created.secret, rotated.secret]) expect(logs).not.toContain(secretBytes(secret));
    } finally {
      await service.stop();
    }
  });

  it('rotates keys: old keys still open, secrets:rewrap re-seals with the new key, then the old key can go', async () => {
    t = await createTestApp({ ENCRYPTION_KEYS: K1 });
    await t.reset();
    const s = await setup(t);
    const hook = await subscribe(t, s);
    expect(await keyIdOf(t, hook.id)).toBe('k1');

    // A new key first: what k1 sealed still signs; new secrets are sealed with k2.
    t = await restart({ ENCRYPTION_KEYS: `${K2},${K1}` });
    await delivered(t, s, hook.path);
    const second = await subscribe(t, s);
    expect(await keyIdOf(t, second.id)).toBe('k2');
    const { stdout } = await run(process.execPath, ['dist/src/cli.js', 'secrets:rewrap'], {
      env: { ...process.env, ENCRYPTION_KEYS: `${K2},${K1}` },
    });
    expect(JSON.parse(stdout)).toEqual({ rewrapped: 1, unreadable: 0 });
    expect(await keyIdOf(t, hook.id)).toBe('k2');

    // k1 dropped: the re-sealed secret still signs.
    t = await restart({ ENCRYPTION_KEYS: K2 });
    await delivered(t, s, hook.path);
    expectStatus(await t.http.delete(`${s.webhooks}/${second.id}`, s.org.headers), 204, 'delete the second endpoint');

    // Without the key that sealed it, the attempt fails with a reason that names no secret, and nothing is sent.
    t = await restart({ ENCRYPTION_KEYS: K1 });
    expectStatus(await t.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, s.agent.headers), 200, 'turn');
    const failed = await waitFor(async () => {
      const res = await t!.http.get(`${s.webhooks}/${hook.id}/deliveries`, s.org.headers);
      return res.body.results.find((d: { attempts: number; last_error: string | null }) => d.attempts > 0 && d.last_error);
    }, 'a failed attempt');
    expect(failed.last_error).toBe('the signing secret cannot be decrypted (see the service log)');
    expect(receiver.at(hook.path, 'turn.completed')).toHaveLength(2);
    expect(JSON.stringify(failed)).not.toContain('whsec_');
  });

  it('migrates the clear-text secrets of a populated database and keeps them signing', async () => {
    t = await createTestApp();
    await t.reset();
    const s = await setup(t);
    const hook = await subscribe(t, s);
    const other = await subscribe(t, s);
    const migration = new WebhookSecretsSealed1732242700000();
    const runner = t.dataSource.createQueryRunner();
    try {
      // Back to the schema before the migration: clear-text secrets, as an existing database holds them.
      await migration.down(runner);
      const clear = await t.dataSource.query(`SELECT id, secret FROM webhook_endpoints ORDER BY id`);
      expect(clear).toEqual(
        [
          { id: hook.id, secret: hook.secret },
          { id: other.id, secret: other.secret },
        ].sort((x, y) => x.id.localeCompare(y.id)),
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const stored = await storedText(t, s.org.id);
    expect(stored).not.toContain(secretBytes(hook.secret));
    expect(stored).not.toContain(secretBytes(other.secret));
    expect(await keyIdOf(t, hook.id)).toBe('jwt');
    await delivered(t, s, hook.path);
    await receiver.waitFor(other.path, 1, 'turn.completed');
  });
});
