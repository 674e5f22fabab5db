/**
 * The typed client as a user gets it (issue 33): `clients/typescript` built to ESM JavaScript with declarations,
 * packed with `npm pack`, installed from the tarball into a scratch project (dependencies from the npm registry,
 * nothing else), and its README's code blocks saved as written, type-checked against the installed package and run
 * against the real service.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { generateWebhookSecret, signPayload } from '../../src/common/outbound/webhook-signature.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(300_000);

const run = promisify(execFile);
const ROOT = process.cwd();
const CLIENT = join(ROOT, 'clients', 'typescript');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The README's code blocks that carry a file name (`<!-- name.ts: … -->` right above the fence), as written. */
function readmeFiles(): Record<string, string> {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
  return Object.fromEntries([...readme.matchAll(/<!-- ([\w-]+\.ts)\b[^>]*-->\n```ts\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
}

describe('client package from its npm pack tarball', () => {
  let t: TestApp;
  let scratch: string;

  beforeAll(async () => {
    t = await createTestApp();
    scratch = mkdtempSync(join(tmpdir(), 'client-package-'));
  });

  afterAll(async () => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    await t?.close();
  });

  it('packs ESM with declarations, installs into a scratch project, and runs the README example as written', async () => {
    await run(process.execPath, [TSC, '-p', join(CLIENT, 'tsconfig.build.json')]);
    const { stdout: packJson } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: CLIENT });
    const [packed] = JSON.parse(packJson) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/webhooks.js', 'dist/webhooks.d.ts']),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

    const blocks = readmeFiles();
    expect(Object.keys(blocks).sort()).toEqual(['example.ts', 'webhook-receiver.ts']);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'scratch',
        private: true,
        type: 'module',
        dependencies: { '@agent-service/client': `file:./${packed!.filename}` },
      }),
    );
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: scratch,
      timeout: 240_000,
    });
    for (const [name, code] of Object.entries(blocks)) writeFileSync(join(scratch, name), code);
    // What a TypeScript user compiles: strict, Node's ESM resolution, the package's own declarations.
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: Object.keys(blocks),
      }),
    );
    await run(process.execPath, [TSC, '-p', scratch]).catch((error: { stdout?: string }) => {
      throw new Error(`the README's code does not type-check against the packed package:\n${error.stdout}`);
    });

    const org = await t.factory.org();
    const { stdout } = await run(process.execPath, ['example.js'], {
      cwd: scratch,
      env: { ...process.env, AGENT_SERVICE_URL: t.baseUrl, ORG_API_KEY: org.apiKey },
    });
    // Two agent lines (the reply, then the streamed follow-up) and the follow-up's card count and thread.
    expect(stdout).toMatch(/^agent: \S[\s\S]*\nagent: \S[\s\S]*\n\(\d+ cards, thread [0-9a-f]{24}\)\n$/);
    // The follow-up went to the thread of the first reply.
    const threads = await t.http.get('/management/v1/threads', org.headers);
    expect(threads.body.results).toHaveLength(1);
    expect(stdout).toContain(`thread ${threads.body.results[0].id})`);

    // The verify helper, imported from the installed package: a signed delivery passes, a tampered one does not.
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'thread.created', timestamp: new Date().toISOString(), data: { title: 'Hello' } });
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const signature = signPayload([secret], headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), body);
    const check = `
      import { verifyWebhook, WebhookVerificationError } from '@agent-service/client';
      const [secret, body, headers] = JSON.parse(process.argv[1]);
      const event = verifyWebhook(secret, body, new Headers(headers));
      let tampered;
      try { verifyWebhook(secret, body.replace('Hello', 'Hi'), headers); } catch (error) { tampered = error instanceof WebhookVerificationError; }
      console.log(JSON.stringify({ type: event.type, title: event.data.title, tampered }));`;
    const verified = await run(
      process.execPath,
      ['--input-type=module', '-e', check, JSON.stringify([secret, body, { ...headers, 'webhook-signature': signature }])],
      {
        cwd: scratch,
      },
    );
    expect(JSON.parse(verified.stdout)).toEqual({ type: 'thread.created', title: 'Hello', tampered: true });
  });
});
