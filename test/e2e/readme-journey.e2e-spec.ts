/**
 * The README's shell journey, run as written with bash, curl and node against the real app: the shop and knowledge
 * agents (the knowledge upload included), a continued thread, citations; and what a person sees when a call fails:
 * the service's error body, never a Node.js stack trace.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(120_000);

const run = promisify(execFile);

/** The README's bash block of the shell journey (the one that defines the `api` helper). */
function journey(): string {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('api() {'));
  if (!block) throw new Error('README.md has no bash block defining api()');
  return block;
}

async function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('bash', ['-c', script], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      maxBuffer: 16 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("README's shell journey", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs as written: shop replies in one continued thread, the knowledge upload, a cited answer', async () => {
    const org = await t.factory.org();
    const { code, stdout, stderr } = await bash(`set -e\n${journey()}`, { BASE: t.baseUrl, KEY: org.apiKey });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const threads = await t.http.get('/management/v1/threads', org.headers);
    // Three shop turns (two JSON sends, one stream) in one thread.
    expect(threads.body.results).toHaveLength(1);
    const messages = await t.http.get(`/management/v1/threads/${threads.body.results[0].id}/messages`, org.headers);
    expect(messages.body.results.filter((m: { role: string }) => m.role === 'user')).toHaveLength(3);
    expect(stdout).toContain('event: message');
    // The knowledge agent answered from an uploaded file, with its citations printed.
    const citations = /^(\[\{"marker":.*\])$/m.exec(stdout);
    expect(citations).not.toBeNull();
    const cited = JSON.parse(citations![1]!) as Array<{ document_id: string }>;
    expect(cited.some((c) => c.document_id.startsWith('streaming.md'))).toBe(true);
  });

  it('shows the service’s error body when a call fails, not a stack trace', async () => {
    const { code, stderr } = await bash(`set -e\n${journey()}`, { BASE: t.baseUrl, KEY: 'oak_not-a-key' });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/no id in the answer: \{"error":\{"code":"[a-z_]+","message":"[^"]+","request_id"/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('links only files inside the repository (README and docs/), and each exists', () => {
    const root = process.cwd();
    const files = ['README.md', 'clients/typescript/README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      // Code blocks hold shell and JSON, not links.
      const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link!) || link!.startsWith('#')) continue;
        const target = resolve(dirname(join(root, file)), link!.split('#')[0]!);
        if (relative(root, target).startsWith('..') || !existsSync(target)) broken.push(`${file}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
