/**
 * Issue 33's journey, the console half, in Debian's Chromium from a fresh organization and no curl: sign in, make a
 * project and a knowledge agent, drop three Markdown files (and one the service refuses), read the documents they
 * became, try a question, publish, chat, find the thread; then a shop agent from its template with cards, a bundle
 * edit checked against the schema, a diff between revisions, a traffic split, keys and a webhook. Then every
 * console page at 360 px with axe-core. Screenshots: test/artifacts/journey-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { ARTIFACTS, expectOption, horizontalOverflow, openChromium, seriousA11yViolations, type Browser } from '../support/chromium.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(300_000);

const FILES = [
  {
    name: 'returns.md',
    content:
      '# Returns\n\nYou can return any item within 30 days of delivery.\n\n## Refunds\n\nRefunds reach your card within 5 business days after we receive the parcel.\n',
  },
  {
    name: 'shipping.md',
    content: '# Shipping\n\nOrders over 50 euros ship for free.\n\n## Express\n\nExpress delivery takes one working day.\n',
  },
  {
    name: 'account.md',
    content: '# Account\n\n## Password\n\nTo reset your password, open Settings, choose Security and press Reset password.\n',
  },
];

/** Every page of the console, as its navigation names it. */
const PAGES = ['Chat', 'Threads', 'Agents', 'Knowledge', 'Bundle', 'Versions', 'Keys', 'Webhooks', 'Projects'];

describe('Console journey in Chromium (issue 33, console half)', () => {
  let t: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const outside: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `journey-${name}.png`), fullPage: true });
  const go = (name: string) => page.getByRole('link', { name, exact: true }).click();
  const agentTurns = () => page.locator('[data-testid=messages] [data-testid=turn-agent]');
  const agents = async () => {
    const projects = expectStatus(await t.http.get('/management/v1/projects', org.headers), 200, 'projects').body.results;
    return expectStatus(await t.http.get(`/management/v1/projects/${projects[0].id}/agents`, org.headers), 200, 'agents').body
      .results as Array<{
      id: string;
      name: string;
      live_version_tag: string | null;
    }>;
  };

  async function send(text: string) {
    const before = await agentTurns().count();
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction((n) => {
      const turns = document.querySelectorAll('[data-testid=messages] [data-testid=turn-agent]');
      return turns.length > n && !turns[turns.length - 1]!.querySelector('[data-testid=streaming]');
    }, before);
    return agentTurns().last();
  }

  /** Drops files on the knowledge drop zone, as a person dragging them from a file manager does. */
  async function drop(files: Array<{ name: string; content: string; type: string }>) {
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([f.content], f.name, { type: f.type }));
      return transfer;
    }, files);
    await page.getByTestId('dropzone').dispatchEvent('dragover', { dataTransfer });
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
  }

  async function createAgent(name: string, start: RegExp) {
    await go('Agents');
    const form = page.getByTestId('new-agent');
    await form.getByLabel('Name').fill(name);
    const startLabel = await expectOption(page, 'Start from', start);
    await form.getByLabel('Start from').selectOption({ label: startLabel });
    await form.getByRole('button', { name: 'Create agent' }).click();
    await expectOption(page, 'Agent', new RegExp(`^${name} `));
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestApp();
    org = await t.factory.org();
    browser = await openChromium();
    page = browser.page;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of (4\d\d)/.test(message.text())) pageErrors.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(`${t.baseUrl}/`) && !request.url().startsWith('data:')) outside.push(request.url());
    });
  });

  afterEach(() => expect({ pageErrors, outside }).toEqual({ pageErrors: [], outside: [] }));

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in, makes a project and a knowledge agent', async () => {
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('Key').fill(org.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No project yet').waitFor();
    await shot('01-fresh');
    await page.getByRole('button', { name: 'Projects' }).click();
    await page.getByLabel('New project name').fill('Support site');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expectOption(page, 'Project', /^Support site$/);
    await createAgent('Help desk', /^Empty knowledge agent/);
    // A new knowledge agent lands on its Knowledge page.
    await page.getByTestId('dropzone').waitFor();
    await shot('02-knowledge-empty');
  });

  it('drops files: a refused one is named with the reason, three Markdown files become documents', async () => {
    await drop([
      { name: 'logo.png', content: 'PNG', type: 'image/png' },
      { name: 'returns.md', content: FILES[0]!.content, type: 'text/markdown' },
    ]);
    const details = page.getByTestId('error-details');
    await details.waitFor();
    await expect(details.textContent()).resolves.toContain('files["logo.png"]');
    await expect(page.getByTestId('documents').locator('li').count()).resolves.toBe(0);
    await shot('03-refused-file');

    await drop(FILES.map((f) => ({ ...f, type: 'text/markdown' })));
    await page.getByTestId('upload-result').filter({ hasText: 'v1.1' }).waitFor();
    const documents = page.getByTestId('documents').locator('li');
    // As many as the upload says it made (one per h1–h3 section with text).
    const made = Number(/(\d+) documents? from the files/.exec((await page.getByTestId('upload-result').textContent())!)![1]);
    expect(made).toBeGreaterThanOrEqual(4);
    // The list is the new revision's knowledge, read back after the upload.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=documents] > li').length === n, made);
    await expect(page.getByTestId('documents').textContent()).resolves.toContain('Account › Password');
    // A document's text, as it became.
    await documents.filter({ hasText: 'Account › Password' }).locator('summary').click();
    await page.getByText('press Reset password').waitFor();
    await shot('04-documents');
  });

  it('tries a question before publishing, then publishes', async () => {
    await page.getByRole('textbox', { name: 'Question' }).fill('How do I reset my password?');
    await page.getByRole('button', { name: 'Search' }).click();
    const retrieval = page.getByTestId('retrieval');
    await retrieval.waitFor();
    await expect(retrieval.textContent()).resolves.toContain('The agent would answer from these passages');
    await expect(retrieval.locator('li').first().textContent()).resolves.toContain('Account › Password');
    await shot('05-try-a-question');
    await page.getByTestId('publish').click();
    await expectOption(page, 'Agent', /^Help desk \(v2 · live v1\.1\)/);
    expect((await agents()).find((a) => a.name === 'Help desk')?.live_version_tag).toBe('v1.1');
  });

  it('asks in the console and finds the thread', async () => {
    await go('Chat');
    await page.getByTestId('start-chat').click();
    await agentTurns().first().waitFor();
    const reply = await send('How long do refunds take?');
    await reply.getByTestId('citation-marker').first().waitFor();
    await expect(reply.textContent()).resolves.toContain('5 business days');
    await shot('06-chat-knowledge');
    await go('Threads');
    const list = page.getByTestId('thread-list');
    await list.getByRole('button').first().click();
    await page.getByTestId('transcript').locator('.turn.user', { hasText: 'How long do refunds take?' }).waitFor();
    await shot('07-thread');
  });

  it('makes a shop agent from its template, edits its bundle against the schema, diffs, publishes and chats with cards', async () => {
    await createAgent('Gear shop', /^Template: Shopping assistant/);
    // A decisioning agent lands on its bundle.
    const editor = page.getByTestId('bundle-editor');
    await editor.locator('.cm-content').waitFor();
    await page.getByText('No problems found against the bundle schema.').waitFor();
    // A value the schema refuses is flagged as it is typed.
    // The last member wins in JSON, so the edit goes at the end: after the last value, before the closing brace.
    await editor.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.type(', "welcome_message": 42');
    await page.getByTestId('editor-problems').locator('li').first().waitFor();
    await expect(page.getByTestId('editor-problems').textContent()).resolves.toMatch(/string/i);
    await shot('08-bundle-invalid');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('"Welcome to Gear shop: ask me for shoes, jackets or tents."');
    await page.getByText('No problems found against the bundle schema.').waitFor();
    await page.getByLabel('Revision message (optional)').fill('Our own greeting');
    await page.getByRole('button', { name: /^Push as a new revision/ }).click();
    await page.getByTestId('pushed').filter({ hasText: 'v1.1' }).waitFor();

    await go('Versions');
    await page.getByTestId('version-list').getByText('Our own greeting').waitFor();
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.getByTestId('diff');
    await diff.waitFor();
    await expect(diff.textContent()).resolves.toMatch(/\+ +"welcome_message": "Welcome to Gear shop/);
    await shot('09-diff');
    await page.getByRole('button', { name: 'Publish v1.1' }).click();
    await expectOption(page, 'Agent', /^Gear shop \(v1 · live v1\.1\)/);

    await go('Chat');
    await page.getByTestId('start-chat').click();
    await expect(agentTurns().first().textContent()).resolves.toContain('Welcome to Gear shop');
    const reply = await send('Trail running shoes in size 10');
    await expect(reply.getByTestId('card').count()).resolves.toBeGreaterThan(0);
    await reply.locator('.card.recommended').waitFor();
    await shot('10-chat-shop-cards');
  });

  it('splits traffic between two published versions', async () => {
    await go('Versions');
    await page.getByLabel('New version from').selectOption({ label: 'a copy of version 1 (v1.1)' });
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByRole('button', { name: 'Publish v2.0' }).click();
    await page.getByRole('button', { name: 'Publish v2.0' }).waitFor({ state: 'hidden' });
    await page.getByLabel('Version 1 %').fill('10');
    await page.getByLabel('Version 2 (live) %').fill('90');
    await page.getByRole('button', { name: 'Save split' }).click();
    await page.getByText(/New end users are shared out: v2\.0 90%, v1\.1 10%|New end users are shared out: v1\.1 10%, v2\.0 90%/).waitFor();
    await shot('11-traffic');
  });

  it('makes keys with restrictions (a bad origin named as the API names it) and a webhook', async () => {
    await go('Keys');
    await page.getByLabel('Allowed origins (one per line)').fill('shop.example.com/path');
    await page.getByRole('button', { name: 'Create publishable key' }).click();
    await page.getByTestId('error-details').filter({ hasText: 'allowed_origins[0]' }).waitFor();
    await page.getByLabel('Allowed origins (one per line)').fill('https://shop.example.com');
    await page.getByLabel('Allowed IP ranges (CIDR, one per line)').fill('203.0.113.0/24');
    await page.getByRole('button', { name: 'Create publishable key' }).click();
    await expect(page.getByTestId('new-secret').textContent()).resolves.toMatch(/pk_/);
    await page.getByTestId('publishable-keys').getByText('origins: https://shop.example.com · IPs: 203.0.113.0/24').waitFor();
    await shot('12-keys');

    await go('Webhooks');
    await page.getByLabel('URL').fill('https://hooks.example.com/agents');
    await page.getByLabel('turn.completed').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByTestId('new-secret').textContent()).resolves.toMatch(/whsec_/);
    await page.getByTestId('webhook-list').getByText('https://hooks.example.com/agents').waitFor();
    await shot('13-webhooks');
  });

  it('works at 360 px on every page, with no serious or critical axe-core violation', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    const report: Record<string, unknown> = {};
    for (const name of PAGES) {
      await go(name);
      await page.locator('.page').first().waitFor();
      await page.waitForLoadState('networkidle');
      const violations = await seriousA11yViolations(page);
      const overflow = await horizontalOverflow(page);
      if (violations.length || overflow) report[name] = { overflow, violations };
      await shot(`360-${name.toLowerCase()}`);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('signin').waitFor();
    const signIn = { violations: await seriousA11yViolations(page), overflow: await horizontalOverflow(page) };
    if (signIn.violations.length || signIn.overflow) report['Sign in'] = signIn;
    await shot('360-signin');
    expect(report).toEqual({});
  });
});
