import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The built service as a real process: logs, configuration errors and graceful shutdown. */
interface Started {
  child: ChildProcessWithoutNullStreams;
  url: string;
  logs: string[];
  exited: Promise<number | null>;
}

function startService(env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', MIGRATE_ON_START: 'true', ...env },
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) resolve({ child, url: match[1]!, logs, exited });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`service exited with ${code}: ${logs.join('\n')}`)));
  });
}

describe('the service process', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(() => t.close());

  it('refuses to start on bad configuration, listing every bad key', async () => {
    const child = spawn(process.execPath, ['dist/src/main.js'], { env: { ...process.env, PORT: 'abc', LOG_LEVEL: 'loud', NODE_ENV: 'production', JWT_SECRET: '' } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
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
      const res = await fetch(`${service.url}/management/v1/projects`, { headers: { ...org.headers, 'x-request-id': 'log-check-1' } });
      expect(res.status).toBe(200);
      await fetch(`${service.url}/management/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'password', username: 'x@y.test', password: 'secret-password-value' }) });
      await new Promise((r) => setTimeout(r, 200));
      const line = service.logs.find((l) => l.includes('log-check-1'));
      expect(line).toBeDefined();
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
    const url = new URL(`${service.url}/management/v1/projects`);
    const body = JSON.stringify({ name: 'in-flight' });
    // Start a request, send half the body, signal the process, then finish the body.
    const response = new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { ...org.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
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
