import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { startServiceProcess } from '../support/service-process.js';
import { waitFor } from '../support/wait.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The built service as a real process: logs, configuration errors and graceful shutdown. */
const startService = () => startServiceProcess({ MIGRATE_ON_START: 'true', WORKERS: 'on' });

describe('the service process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses to start on bad configuration, listing every bad key', async () => {
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      env: { ...process.env, PORT: 'abc', LOG_LEVEL: 'loud', NODE_ENV: 'production', JWT_SECRET: '' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('LOG_LEVEL');
    expect(stderr).toContain('JWT_SECRET');
  });

  it('writes JSON request logs with the request id and never a credential', async () => {
    const org = await t.factory.org();
    const service = await startService();
    try {
      const res = await fetch(`${service.baseUrl}/management/v1/projects`, { headers: { ...org.headers, 'x-request-id': 'log-check-1' } });
      expect(res.status).toBe(200);
      await fetch(`${service.baseUrl}/management/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'password', username: 'x@y.test', password: 'secret-password-value' }),
      });
      const line = await waitFor(() => service.logs.find((l) => l.includes('log-check-1')), 'the request log line');
      expect(JSON.parse(line!)).toMatchObject({ reqId: 'log-check-1', method: 'GET', path: '/management/v1/projects', status: 200 });
      const all = service.logs.join('\n');
      expect(all).not.toContain(org.apiKey);
      expect(all).not.toContain('secret-password-value');
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('on SIGTERM finishes in-flight requests, then exits 0', async () => {
    const org = await t.factory.org();
    const service = await startService();
    const url = new URL(`${service.baseUrl}/management/v1/projects`);
    const body = JSON.stringify({ name: 'in-flight' });
    // Start a request, send half the body, signal the process, then finish the body.
    const response = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { ...org.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        service.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    expect(await response).toBe(201);
    expect(await service.exited).toBe(0);
    const rows = await t.dataSource.query(`SELECT name FROM projects WHERE organization_id = $1`, [org.id]);
    expect(rows).toEqual([{ name: 'in-flight' }]);
  });
});
