import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runServiceToExit, startServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);
const STACK_FRAME = /^\s+at /m;

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Start-up as a person meets it: the quickstart banner, and failures that say what to fix (spawned built service). */
describe('service start-up', () => {
  let t: TestApp;
  let scratch: string;
  beforeAll(async () => {
    t = await createTestApp();
    scratch = mkdtempSync(join(tmpdir(), 'startup-'));
  });
  beforeEach(() => t.reset());
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await t.close();
  });

  it('prints the banner below the boot logs once it listens, and its curl works as printed', async () => {
    const orgApiKey = 'oak_startup_test_key_0123456789';
    const file = join(scratch, 'quickstart.json');
    const demo = await run(process.execPath, ['dist/src/cli.js', 'demo:ensure', '--file', file], {
      env: { ...process.env, BOOTSTRAP_ORG_API_KEY: orgApiKey },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const quickstart = JSON.parse(readFileSync(file, 'utf8'));
    expect(JSON.parse(demo.stdout)).toEqual(quickstart);
    expect(quickstart.agents.map((a: { runtime: string; template: string }) => [a.runtime, a.template])).toEqual([
      ['v1', 'shopping-assistant'],
      ['v2', 'knowledge-assistant'],
    ]);
    // Idempotent: a second run reuses everything, keys included.
    const again = await run(process.execPath, ['dist/src/cli.js', 'demo:ensure', '--file', file], {
      env: { ...process.env, BOOTSTRAP_ORG_API_KEY: orgApiKey },
    });
    expect(JSON.parse(again.stdout)).toEqual(quickstart);

    const service = await startServiceProcess({ QUICKSTART_FILE: file, BOOTSTRAP_ORG_API_KEY: orgApiKey });
    try {
      const listening = service.logs.findIndex((l) => l.includes('Server listening at'));
      await waitFor(() => service.logs.some((l) => l.includes('-d \'{"text"')));
      const banner = service.logs.slice(service.logs.findIndex((l) => l.includes('Agent service ready at')));
      expect(service.logs.indexOf(banner[0]!)).toBeGreaterThan(listening);
      const text = banner.join('\n');
      expect(text).toContain(`Console:     ${service.baseUrl}/console`);
      expect(text).toContain(`Org API key: ${orgApiKey}`);
      expect(text).toContain(`Web widget:  <script src="${service.baseUrl}/widget.js" data-publishable-key="pk_…" defer></script>`);
      // Which models can answer, and where each provider is called (issue 33).
      expect(text).toContain('Models:      builtin (no network); openai');
      // Boot logs at info are a few lines, not one per module or route.
      expect(service.logs.filter((l) => l.startsWith('{')).length).toBeLessThan(10);
      expect(service.logs.some((l) => l.includes('RouterExplorer'))).toBe(false);

      const curl = banner.filter((l) => l.startsWith('    ')).join('\n');
      const { stdout } = await run('bash', ['-c', curl]);
      const reply = JSON.parse(stdout);
      expect(reply.message.sender).toEqual({ id: quickstart.agents[0].agent_id, type: 'agent' });
      expect(reply.message.cards.length).toBeGreaterThan(0);
    } finally {
      await service.stop();
    }
  });

  it('a taken port is one line naming PORT, without a stack trace', async () => {
    const holder: Server = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const { port } = holder.address() as { port: number };
    try {
      const { code, stderr } = await runServiceToExit({ PORT: String(port) });
      expect(code).toBe(69);
      expect(stderr).toContain(`port ${port} is in use; set PORT`);
      expect(stderr).not.toMatch(STACK_FRAME);
    } finally {
      holder.close();
    }
  });

  it('an unreachable PostgreSQL or Redis names the variable and the address tried, without a stack trace', async () => {
    const port = await closedPort();
    const db = await runServiceToExit({ DATABASE_URL: `postgres://someone:hunter2@127.0.0.1:${port}/nowhere` });
    expect(db.code).toBe(69);
    expect(db.stderr).toContain(`cannot reach PostgreSQL at 127.0.0.1:${port} (DATABASE_URL)`);
    expect(db.stderr).not.toContain('hunter2');
    expect(db.stderr).not.toMatch(STACK_FRAME);

    const redis = await runServiceToExit({ REDIS_URL: `redis://127.0.0.1:${port}/0` });
    expect(redis.code).toBe(69);
    expect(redis.stderr).toContain(`cannot reach Redis at 127.0.0.1:${port} (REDIS_URL): connect ECONNREFUSED`);
    expect(redis.stderr).not.toMatch(STACK_FRAME);
  });

  it('refuses to start in production without JWT_SECRET, and npm run start:prod means production', async () => {
    const direct = await runServiceToExit({ NODE_ENV: 'production', JWT_SECRET: undefined });
    expect(direct.code).toBe(78);
    expect(direct.stderr).toContain('JWT_SECRET is required in production');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && name !== 'JWT_SECRET'));
    const viaNpm = await run('npm', ['run', '-s', 'start:prod'], { env }).catch((error: { code: number; stderr: string }) => error);
    expect(viaNpm).toMatchObject({ code: 78, stderr: expect.stringContaining('JWT_SECRET is required in production') });
  });

  it('reads .env from the working directory; the environment wins over it', async () => {
    const dir = mkdtempSync(join(scratch, 'dotenv-'));
    const port = await closedPort();
    writeFileSync(join(dir, '.env'), `# a comment\nREDIS_URL=redis://127.0.0.1:${port}/0\nLOG_LEVEL=loud\n`);
    const env = { NODE_ENV: 'development', REDIS_URL: undefined, LOG_LEVEL: 'info' };
    const { code, stderr } = await runServiceToExit(env, { cwd: dir });
    expect(code).toBe(69);
    expect(stderr).toContain(`cannot reach Redis at 127.0.0.1:${port} (REDIS_URL)`);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting for the banner');
    await new Promise((done) => setTimeout(done, 50));
  }
}
