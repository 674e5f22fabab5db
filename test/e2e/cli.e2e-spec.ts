import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ['dist/src/cli.js', ...args], { env: process.env });

describe('CLI and start-up bootstrap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('org:create prints JSON with a working organization API key', async () => {
    const { stdout } = await cli('org:create', '--name', 'Acme');
    const created = JSON.parse(stdout);
    expect(created).toEqual({ organization_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.stringMatching(/^oak_/) });
    const res = await t.http.get('/management/v1/projects', { 'x-organization-api-key': created.api_key });
    expect(res.status).toBe(200);
  });

  it('user:create makes a user who can log in', async () => {
    const org = JSON.parse((await cli('org:create', '--name', 'Acme')).stdout);
    const { stdout } = await cli('user:create', '--org', org.organization_id, '--email', 'ops@acme.test', '--password', 'long-enough-pw');
    expect(JSON.parse(stdout)).toEqual({ user_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const token = await t.http.post('/management/v1/auth/token', {
      grant_type: 'password',
      username: 'ops@acme.test',
      password: 'long-enough-pw',
    });
    expect(token.body.organization_id).toBe(org.organization_id);
  });

  it('fails with a usage message and a non-zero exit on bad input', async () => {
    await expect(cli('org:create')).rejects.toMatchObject({ code: 2 });
    await expect(cli('nonsense')).rejects.toMatchObject({ code: 2 });
    await expect(
      cli('user:create', '--org', '000000000000000000000000', '--email', 'a@b.test', '--password', 'long-enough-pw'),
    ).rejects.toMatchObject({ code: 1 });
  });

  it('BOOTSTRAP_ORG_API_KEY ensures exactly one organization accepting that key, across restarts', async () => {
    const env = { BOOTSTRAP_ORG_API_KEY: 'bootstrap-key-0123456789', BOOTSTRAP_ORG_NAME: 'boot' };
    const first = await createTestApp(env);
    await first.close();
    const second = await createTestApp(env);
    try {
      const res = await second.http.get('/management/v1/projects', { 'x-organization-api-key': env.BOOTSTRAP_ORG_API_KEY });
      expect(res.status).toBe(200);
      const orgs = await second.dataSource.query(`SELECT count(*)::int AS n FROM organizations WHERE name = 'boot'`);
      expect(orgs[0].n).toBe(1);
    } finally {
      await second.close();
    }
  });
});
