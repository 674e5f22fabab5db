/**
 * The playground defects of issue 33, each as the person met it, in Debian's Chromium against the real app. Each of
 * these failed on the playground before its fix (the page is still reached at its old address, /playground, which
 * now redirects to /console/). Screenshots go to test/artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { ARTIFACTS, expectOption, horizontalOverflow, openChromium, type Browser } from '../support/chromium.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(240_000);

describe('Playground defects (issue 33), in Chromium', () => {
  let t: TestApp;
  let fake: FakeServer;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const ids = { demo: '', shop: '', help: '', versions: '', writer: '' };

  const api = async (method: 'get' | 'post', path: string, body: unknown, status: number, step: string) =>
    expectStatus(method === 'get' ? await t.http.get(path, org.headers) : await t.http.post(path, body, org.headers), status, step).body;

  async function agent(
    project: string,
    name: string,
    runtime: 'v1' | 'v2',
    template: string,
    edit?: (b: Record<string, unknown>) => object,
  ) {
    const made = await api('post', `/management/v1/projects/${project}/agents`, { name, runtime }, 201, `agent ${name}`);
    const version = await api('post', `/management/v1/agents/${made.id}/versions`, { source: 'template', template }, 201, 'version');
    if (edit) {
      const { bundle } = await api('get', `/management/v1/agents/${made.id}/versions/${version.id}/pull`, undefined, 200, 'pull');
      await api('post', `/management/v1/agents/${made.id}/versions/${version.id}/push`, { bundle: edit(bundle) }, 200, 'push');
    }
    await api('post', `/management/v1/agents/${made.id}/versions/${version.id}/publish`, undefined, 200, 'publish');
    return made.id as string;
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `defect-${name}.png`), fullPage: false });
  const agentTurns = () => page.locator('[data-testid=messages] [data-testid=turn-agent]');
  /** A page of the console (a navigation link) or a tab of the old playground. */
  const open = (name: string) =>
    page
      .locator('nav a, [role=tab]')
      .filter({ hasText: new RegExp(`^${name}$`) })
      .first()
      .click();
  const threadShown = async () => /thread ([0-9a-f]{24})/.exec((await page.getByText(/thread [0-9a-f]{24}/).textContent()) ?? '')?.[1];

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

  /** The test agents live in the Demo project (which a person picks by hand where it is not the default). */
  async function pickAgent(agentId: string) {
    await page.getByLabel('Project', { exact: true }).selectOption(ids.demo);
    await page.getByLabel('Agent', { exact: true }).selectOption(agentId);
  }

  async function chatWith(agentId: string) {
    await pickAgent(agentId);
    await open('Chat').catch(() => undefined);
    const live = (await api('get', `/management/v1/agents/${agentId}`, undefined, 200, 'agent')).live_version_tag as string;
    await expectOption(page, 'Version', new RegExp(live.replace('.', '\\.')));
    await page.getByTestId('start-chat').click();
    await agentTurns().first().waitFor();
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    fake = await startFakeOpenAI();
    t = await createTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' });
    org = await t.factory.org();
    // The demo project comes first (npm start makes it), then newer ones; two share a name.
    ids.demo = (await api('post', '/management/v1/projects', { name: 'Demo' }, 201, 'demo')).id;
    await api('post', '/management/v1/projects', { name: 'Twin' }, 201, 'twin 1');
    await api('post', '/management/v1/projects', { name: 'Twin' }, 201, 'twin 2');
    await api('post', '/management/v1/projects', { name: 'Newest project' }, 201, 'newest');
    ids.shop = await agent(ids.demo, 'Trail shop', 'v1', 'shopping-assistant');
    ids.help = await agent(ids.demo, 'Help center', 'v2', 'knowledge-assistant');
    ids.writer = await agent(ids.demo, 'Model writer', 'v2', 'knowledge-assistant', (b) => ({
      ...b,
      model: { provider: 'openai', name: 'gpt-test-mini' },
    }));
    // Versions: 1 published (no longer live), 2 live, 3 a draft with two pushes.
    ids.versions = await agent(ids.demo, 'Many versions', 'v2', 'knowledge-assistant');
    const second = await api(
      'post',
      `/management/v1/agents/${ids.versions}/versions`,
      { source: 'template', template: 'knowledge-assistant' },
      201,
      'v2',
    );
    await api('post', `/management/v1/agents/${ids.versions}/versions/${second.id}/publish`, undefined, 200, 'publish v2');
    const third = await api(
      'post',
      `/management/v1/agents/${ids.versions}/versions`,
      { source: 'template', template: 'knowledge-assistant' },
      201,
      'v3',
    );
    const { bundle } = await api('get', `/management/v1/agents/${ids.versions}/versions/${third.id}/pull`, undefined, 200, 'pull v3');
    for (const greeting of ['Draft one', 'Draft two']) {
      await api(
        'post',
        `/management/v1/agents/${ids.versions}/versions/${third.id}/push`,
        { bundle: { ...bundle, welcome_message: greeting } },
        200,
        'push',
      );
    }
    browser = await openChromium();
    page = browser.page;
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(() => expect(pageErrors).toEqual([]));

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('says where the organization key is (no hint before)', async () => {
    await page.goto(`${t.baseUrl}/playground`);
    await page.getByLabel('Key').waitFor();
    const text = (await page.locator('form').textContent())!;
    expect(text).toContain('npm start');
    expect(text).toContain('.data/demo-org-api-key');
    expect(text).toContain('npm run cli -- org:create');
    await shot('key-hint');
  });

  it('opens the Demo project, not the newest one', async () => {
    await page.getByLabel('Key').fill(org.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectOption(page, 'Project', /Newest project/);
    const picked = await page.getByLabel('Project', { exact: true }).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
    expect(picked).toBe('Demo');
  });

  it('tells projects with the same name apart', async () => {
    const twins = (await page.getByLabel('Project', { exact: true }).locator('option').allTextContents()).filter((l) =>
      l.startsWith('Twin'),
    );
    expect(twins).toHaveLength(2);
    expect(new Set(twins).size).toBe(2);
  });

  it('offers every version and revision, an older published one included, each once', async () => {
    await pickAgent(ids.versions);
    await open('Chat').catch(() => undefined);
    await expectOption(page, 'Version', /v3\.2/);
    const labels = await page.getByLabel('Version', { exact: true }).locator('option').allTextContents();
    const tags = labels.map((l) => /^v\d+\.\d+/.exec(l.trim())?.[0]);
    expect(tags.sort()).toEqual(['v1.0', 'v2.0', 'v3.0', 'v3.1', 'v3.2']);
    // The older published version can be picked and chatted with.
    await page.getByLabel('Version', { exact: true }).selectOption({ label: labels.find((l) => l.startsWith('v1.0'))! });
    await page.getByTestId('start-chat').click();
    await page.getByText('v1.0 (preview)').first().waitFor();
    await agentTurns().first().waitFor();
    await shot('versions');
  });

  it('keeps the conversation when going to Threads and back (Chat → Threads → Chat)', async () => {
    await chatWith(ids.shop);
    await send('Trail running shoes in size 10');
    const thread = await threadShown();
    expect(thread).toMatch(/^[0-9a-f]{24}$/);
    await open('Threads');
    await page.getByTestId('thread-list').waitFor();
    await open('Chat');
    await page.getByText('Trail running shoes in size 10').waitFor();
    expect(await threadShown()).toBe(thread);
    // Back on Chat, "Chat with this version" (the same one) continues the conversation; only "New conversation" starts over.
    await page.getByTestId('start-chat').click();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.getByText('Trail running shoes in size 10').waitFor({ timeout: 5_000 });
    expect(await threadShown()).toBe(thread);
    await send('Waterproof jacket under $250');
    const transcript = await api('get', `/management/v1/threads/${thread}/messages`, undefined, 200, 'transcript');
    expect(transcript.results.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
  });

  /** A fresh reply of the shop with cards (each card test makes its own). */
  async function shopCard() {
    await chatWith(ids.shop);
    const reply = await send('Trail running shoes in size 10');
    const card = reply.getByTestId('card').first();
    await card.waitFor();
    return card;
  }

  it('shows no raw record id on cards', async () => {
    const card = await shopCard();
    await card.locator('dt').first().waitFor();
    expect(await card.locator('dt').allTextContents()).not.toContain('id');
  });

  it('lets every column of a variants table be seen inside its card', async () => {
    const card = await shopCard();
    await card.locator('.variants summary').click();
    const table = card.locator('.variants table');
    await table.waitFor();
    // Scroll whatever box holds the table as far right as it goes: its last column must then lie inside the card.
    const placement = await card.evaluate((el) => {
      const table = el.querySelector('.variants table')!;
      for (let box: Element | null = table.parentElement; box && box !== el.parentElement; box = box.parentElement) {
        box.scrollLeft = box.scrollWidth;
      }
      const last = table.querySelector('th:last-child')!.getBoundingClientRect();
      const frame = el.getBoundingClientRect();
      return { lastLeft: last.left, lastRight: last.right, cardLeft: frame.left, cardRight: frame.right };
    });
    expect(placement.lastRight).toBeLessThanOrEqual(placement.cardRight + 1);
    expect(placement.lastLeft).toBeGreaterThanOrEqual(placement.cardLeft - 1);
    await card.scrollIntoViewIfNeeded();
    await shot('variants');
  });

  it('shows the details of an API error, not only "The request is not valid"', async () => {
    const invalid = await t.http.get(`/management/v1/threads?agent_id=${ids.shop}&param=nonsense`, org.headers);
    expect(invalid.status).toBe(422);
    const detail = invalid.body.error.details[0].message as string;
    await open('Threads');
    await page.getByLabel('Parameter').fill('nonsense');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText(detail).waitFor();
    await shot('error-details');
  });

  it('offers no v1 filter examples on a v2 agent, and the agent’s own codes on a v1 agent', async () => {
    // The shop's own tool code and first (numeric) parameter, from its live bundle.
    await page.locator('input[placeholder="catalog_search"]').waitFor();
    await expect(page.getByLabel('Parameter').getAttribute('placeholder')).resolves.toBe('budget>=10');
    await pickAgent(ids.help);
    await open('Threads');
    await page.getByLabel('Parameter').waitFor();
    await expect(page.getByLabel('Tool').count()).resolves.toBe(0);
    await expect(page.getByLabel('Rule').count()).resolves.toBe(0);
    await expect(page.locator('input[placeholder="catalog_search"], input[placeholder="budget>=50"]').count()).resolves.toBe(0);
  });

  it('shows which model and endpoint answered', async () => {
    await chatWith(ids.writer);
    const reply = await send('How do I export all my notes?');
    await expect(reply.textContent()).resolves.toContain(`openai · gpt-test-mini at ${fake.url.replace(/\/$/, '')}`);
    await chatWith(ids.help);
    const builtin = await send('How do I export all my notes?');
    await expect(builtin.textContent()).resolves.toContain('builtin writer');
  });

  it('lays out at 360 px wide: nothing runs off the side, the composer and the reply fit', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await chatWith(ids.shop);
    const reply = await send('Trail running shoes in size 10');
    expect(await horizontalOverflow(page)).toBe(0);
    for (const box of [
      await page.getByLabel('Message').boundingBox(),
      await page.getByRole('button', { name: 'Send' }).boundingBox(),
      await reply.boundingBox(),
    ]) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    }
    await shot('360');
  });
});
