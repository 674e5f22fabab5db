/**
 * The console's chat and threads (docs/playground.md) in a real browser: Debian's Chromium driven by playwright-core
 * against the real app. Screenshots go to test/artifacts/ (git-ignored) for people to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { ARTIFACTS, expectOption, openChromium } from '../support/chromium.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A catalog record whose every field tries to run code when inserted as HTML. */
const HOSTILE_RECORD = {
  id: 'evil-boot',
  name: '<script>window.__pwned = "name"</script>Gravel Evil Boot',
  category: 'Footwear',
  brand: '<img src=x onerror="window.__pwned = \'brand\'">',
  price: 99,
  currency: 'USD',
  rating: 4.1,
  description: 'Gravel boot <img src=x onerror="window.__pwned = \'description\'"> for wet trails',
  colours: 'Black',
  sizes: '10',
  url: 'javascript:window.__pwned = "url"',
  variants: [{ sku: '<b>EVIL-10</b>', colour: '<script>window.__pwned = "variant"</script>', size: '10', price: 99, in_stock: true }],
};

jest.setTimeout(180_000);

describe('Console chat and threads in Chromium', () => {
  let t: TestApp;
  let org: TestOrg;
  let page: Page;
  let closeBrowser: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];
  const outside: string[] = [];
  const ids = { project: '', shop: '', shopLive: '', shopDraft: '', knowledge: '', knowledgeLive: '' };

  const api = async (method: 'get' | 'post', path: string, body: unknown, status: number, step: string) =>
    expectStatus(method === 'get' ? await t.http.get(path, org.headers) : await t.http.post(path, body, org.headers), status, step).body;

  async function agentFromTemplate(name: string, runtime: 'v1' | 'v2', template: string, edit?: (bundle: Bundle) => Bundle) {
    const agent = await api('post', `/management/v1/projects/${ids.project}/agents`, { name, runtime }, 201, `create ${name}`);
    const version = await api('post', `/management/v1/agents/${agent.id}/versions`, { source: 'template', template }, 201, 'version');
    if (edit) {
      const { bundle } = await api('get', `/management/v1/agents/${agent.id}/versions/${version.id}/pull`, undefined, 200, 'pull');
      await api('post', `/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle: edit(bundle) }, 200, 'push');
    }
    await api('post', `/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, 200, 'publish');
    return { agent: agent.id as string, live: version.id as string };
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: false });
  const threadId = async () => /thread ([0-9a-f]{24})/.exec((await page.getByTestId('thread-line').textContent())!)![1]!;
  const agentTurns = () => page.locator('[data-testid=messages] [data-testid=turn-agent]');

  /** Sends a message through the composer and waits until its reply has finished streaming. */
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

  /** Picks the agent, opens Chat, picks the revision (by tag: the list loads when the agent changes) and starts a conversation. */
  async function startChat(agentId: string, tag: string, target: string) {
    await page.getByLabel('Agent', { exact: true }).selectOption(agentId);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Version', { exact: true }).locator(`option[value="${tag}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Version', { exact: true }).selectOption(tag);
    await page.getByTestId('start-chat').click();
    // The new conversation replaces the previous one, whose welcome would otherwise still be on screen.
    await page
      .getByTestId('chat-target')
      .filter({ hasText: new RegExp(`^${target.replace(/[()]/g, '\\$&')}$`) })
      .waitFor();
    await agentTurns().first().waitFor();
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestApp();
    org = await t.factory.org();
    ids.project = (await api('post', '/management/v1/projects', { name: 'Playground demo' }, 201, 'project')).id;
    ({ agent: ids.shop, live: ids.shopLive } = await agentFromTemplate('Trail shop', 'v1', 'shopping-assistant', (bundle) => ({
      ...bundle,
      collections: { products: [HOSTILE_RECORD, ...(bundle.collections?.products ?? [])] },
    })));
    ({ agent: ids.knowledge, live: ids.knowledgeLive } = await agentFromTemplate('Help center', 'v2', 'knowledge-assistant'));
    // A draft of the shop with its own greeting, to try before publishing.
    const draft = await api(
      'post',
      `/management/v1/agents/${ids.shop}/versions`,
      { source: 'template', template: 'shopping-assistant' },
      201,
      'draft',
    );
    const { bundle } = await api('get', `/management/v1/agents/${ids.shop}/versions/${draft.id}/pull`, undefined, 200, 'pull draft');
    const greeting = { ...bundle, welcome_message: 'Draft greeting: the spring catalog is in!' };
    await api('post', `/management/v1/agents/${ids.shop}/versions/${draft.id}/push`, { bundle: greeting }, 200, 'push draft');
    ids.shopDraft = draft.id;

    ({ page, close: closeBrowser } = await openChromium());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${t.baseUrl}/`) && !request.url().startsWith('data:')) outside.push(request.url());
    });
  });

  afterEach(() => {
    // No uncaught error in the page, and no request to anywhere but the service.
    expect({ pageErrors, outside }).toEqual({ pageErrors: [], outside: [] });
  });

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  it('serves the console at /console under its own strict CSP; the playground’s addresses lead there', async () => {
    for (const old of ['/playground', '/playground/']) {
      await page.goto(`${t.baseUrl}${old}`);
      expect(page.url()).toBe(`${t.baseUrl}/console/`);
    }
    const response = await page.goto(`${t.baseUrl}/console`);
    expect(page.url()).toBe(`${t.baseUrl}/console/`);
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).toContain(`script-src 'self'`);
    expect(csp).not.toContain('unsafe-inline');
    // The API's own headers are untouched: JSON routes keep the service-wide policy.
    const health = await t.http.get('/health');
    expect(health.headers.get('content-security-policy')).not.toBe(csp);
    // Hashed assets are cached for good, the page revalidated; anything else under the prefix is an ordinary 404.
    const asset = page.url() + (await page.locator('script[type=module]').getAttribute('src'))!.replace('./', '');
    expect((await t.http.get(new URL(asset).pathname)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response!.headers()['cache-control']).toBe('no-cache');
    const missing = await t.http.get('/console/missing.js');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    expect((await t.http.post('/console/', {})).status).toBe(405);
    await page.getByTestId('signin').waitFor();
    await shot('signin');
  });

  it('signs in with the organization key and refuses a wrong one', async () => {
    await page.getByLabel('Key').fill('oak_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That key was not accepted.').waitFor();
    await page.getByLabel('Key').fill(org.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectOption(page, 'Project', /Playground demo/);
    // Only the tab's sessionStorage holds anything: the key and the project picked.
    const stored = await page.evaluate(() => ({
      local: localStorage.length,
      session: Object.keys(sessionStorage).sort(),
      cookies: document.cookie,
    }));
    expect(stored).toEqual({ local: 0, session: ['console.credential', 'console.project'], cookies: '' });
  });

  it('chats with the v1 shopping agent: welcome first, streamed text, cards, chips and the trace panel', async () => {
    await startChat(ids.shop, 'v1.1', 'Trail shop · v1.1');
    await expect(agentTurns().first().textContent()).resolves.toContain('Hi');
    await expect(page.getByTestId('suggestions').getByRole('button').count()).resolves.toBeGreaterThan(0);

    const stream = page.waitForResponse((r) => r.url().endsWith('/messaging/v1/messages/stream'));
    const reply = await send('Trail running shoes in size 10');
    const body = await (await stream).text();
    // The text arrived as deltas and the page shows exactly the final message.
    const deltas = [...body.matchAll(/^event: delta\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(3);
    const final = JSON.parse(/^event: message\ndata: (.*)$/m.exec(body)![1]!) as { message: { text: string; cards: unknown[] } };
    expect(deltas.join('')).toBe(final.message.text);
    await expect(reply.locator('.text').first().textContent()).resolves.toBe(final.message.text);

    const cards = reply.getByTestId('card');
    await expect(cards.count()).resolves.toBe(final.message.cards.length);
    await expect(reply.locator('.card.recommended').count()).resolves.toBe(1);
    await expect(reply.locator('.card.recommended').textContent()).resolves.toContain('Top pick');
    await expect(reply.locator('.variants').first().textContent()).resolves.toMatch(/\d+ variants/);

    const trace = page.getByTestId('trace-panel').getByTestId('trace');
    await trace.waitFor();
    const traceText = (await trace.textContent())!;
    for (const section of [
      'Intents',
      'Guardrails',
      'Decisions',
      'Computed parameters',
      'Rules evaluations',
      'product_search',
      'catalog_search',
    ]) {
      expect(traceText).toContain(section);
    }
    await shot('chat-v1');

    // A follow-up chip sends its text as the next message, in the same thread.
    const chip = page.getByTestId('suggestions').getByRole('button').first();
    const chipText = (await chip.textContent())!;
    await chip.click();
    await page.locator('[data-testid=turn-user]').filter({ hasText: chipText }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid=streaming]'));
  });

  it('shows script and img markup from a catalog record and from the user as text, running nothing', async () => {
    const reply = await send('<img src=x onerror="window.__pwned = \'user\'"> gravel evil boot');
    const card = reply.getByTestId('card').filter({ hasText: 'Gravel Evil Boot' });
    await expect(card.locator('h4').textContent()).resolves.toBe(HOSTILE_RECORD.name);
    await expect(card.textContent()).resolves.toContain(HOSTILE_RECORD.brand);
    await expect(card.textContent()).resolves.toContain(HOSTILE_RECORD.description);
    await card.locator('.variants summary').click();
    await expect(card.locator('.variants').textContent()).resolves.toContain('<script>window.__pwned = "variant"</script>');
    await expect(page.locator('[data-testid=turn-user]').last().textContent()).resolves.toContain('<img src=x');
    // The javascript: URL is not a link.
    await expect(card.locator('a').count()).resolves.toBe(0);
    const dom = await page.evaluate(() => ({
      scripts: document.querySelectorAll('#app script').length,
      images: document.querySelectorAll('#app img').length,
      pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
    }));
    expect(dom).toEqual({ scripts: 0, images: 0, pwned: null });
    await card.scrollIntoViewIfNeeded();
    await shot('untrusted-as-text');
  });

  it('resumes a dropped stream with Last-Event-ID and shows the whole reply', async () => {
    const lastEventIds: Array<string | undefined> = [];
    await page.route('**/messaging/v1/messages/stream', async (route) => {
      lastEventIds.push(route.request().headers()['last-event-id']);
      if (lastEventIds.length > 1) return route.continue();
      // The first connection drops after three events: fetch the real stream and hand the page only its start.
      const response = await route.fetch();
      const events = (await response.text()).split('\n\n').filter(Boolean);
      return route.fulfill({ response, body: `${events.slice(0, 3).join('\n\n')}\n\n` });
    });
    const reply = await send('Waterproof jacket under $250');
    await page.unroute('**/messaging/v1/messages/stream');
    expect(lastEventIds).toHaveLength(2);
    expect(lastEventIds[0]).toBeUndefined();
    expect(lastEventIds[1]).toMatch(/^[0-9a-f]{24}:3$/);
    await expect(reply.getByTestId('resumed').textContent()).resolves.toBe('resumed ×1');
    const transcript = expectStatus(
      await t.http.get(`/management/v1/threads/${await threadId()}/messages`, org.headers),
      200,
      'transcript',
    ).body;
    const saved = transcript.results.at(-1);
    await expect(reply.locator('.text').first().textContent()).resolves.toBe(saved.text);
    await expect(reply.getByTestId('card').count()).resolves.toBe(saved.cards.length);
  });

  it('browses the agent’s threads with filters, reads a transcript, and shows usage', async () => {
    // Four turns so far; the figures refresh after each one.
    await page
      .getByTestId('usage')
      .filter({ hasText: /Interactions4(?!\d)/ })
      .waitFor();
    await page.getByRole('link', { name: 'Threads', exact: true }).click();
    const list = page.getByTestId('thread-list');
    await list.getByRole('button').first().waitFor();
    await expect(list.getByRole('button').count()).resolves.toBe(1);
    await page.getByLabel('Rule').fill('bulk_order:fired');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No threads match.').waitFor();
    await page.getByLabel('Rule').fill('bulk_order:passed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await list.getByRole('button').first().click();
    const transcript = page.getByTestId('transcript');
    await transcript.getByTestId('card').first().waitFor();
    await expect(transcript.locator('.turn.user').count()).resolves.toBe(4);
    await transcript.getByRole('button', { name: 'Trace' }).first().click();
    await page.locator('.transcript-layout [data-testid=trace]').waitFor();
    await shot('threads');
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
  });

  it('cites passages on the v2 knowledge agent: a [n] marker opens its passage', async () => {
    await startChat(ids.knowledge, 'v1.0', 'Help center · v1.0');
    const reply = await send('How do I export all my notes?');
    const marker = reply.getByTestId('citation-marker').first();
    await marker.waitFor();
    const n = Number(await marker.textContent());
    await marker.click();
    const passage = page.getByTestId('citation-passage');
    await passage.waitFor();
    await expect(passage.locator('h5').textContent()).resolves.toContain(`Source [${n}]`);
    const traces = expectStatus(await t.http.get(`/management/v1/threads/${await threadId()}/trace`, org.headers), 200, 'traces').body;
    const cited = traces.results[0].citations_used.find((c: { marker: number }) => c.marker === n);
    await expect(passage.locator('blockquote').textContent()).resolves.toBe(cited.text);
    const traceText = (await page.getByTestId('trace-panel').textContent())!;
    expect(traceText).toContain('Narrative');
    expect(traceText).toContain(traces.results[0].narrative);
    await shot('chat-v2-citation');
  });

  it('tries a draft on a preview agent without changing what is live', async () => {
    await startChat(ids.shop, 'v2.1', 'Trail shop · v2.1 (preview)');
    await expect(agentTurns().first().textContent()).resolves.toContain('Draft greeting: the spring catalog is in!');
    const reply = await send('Trail running shoes in size 10');
    await expect(reply.getByTestId('card').count()).resolves.toBeGreaterThan(0);
    const shop = expectStatus(await t.http.get(`/management/v1/agents/${ids.shop}`, org.headers), 200, 'shop').body;
    expect(shop.live_version_id).not.toBe(ids.shopDraft);
    const agents = expectStatus(await t.http.get(`/management/v1/projects/${ids.project}/agents`, org.headers), 200, 'agents').body;
    expect(agents.results.map((a: { name: string }) => a.name).sort()).toEqual(['Help center', 'Trail shop', 'Trail shop (draft preview)']);
    await shot('draft-preview');
  });

  it('signs out: the minted publishable keys are revoked and the tab keeps nothing', async () => {
    const keysOf = async (agentId: string) =>
      expectStatus(await t.http.get(`/management/v1/agents/${agentId}/publishable-keys`, org.headers), 200, 'keys').body.results.length;
    expect(await keysOf(ids.shop)).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('signin').waitFor();
    expect(await keysOf(ids.shop)).toBe(0);
    expect(await keysOf(ids.knowledge)).toBe(0);
    await expect(page.evaluate(() => sessionStorage.length + localStorage.length)).resolves.toBe(0);
  });
  it('chats with a pasted publishable key alone (no management access)', async () => {
    const key = await api('post', `/management/v1/agents/${ids.knowledge}/publishable-keys`, {}, 201, 'publishable key');
    await page.getByRole('tab', { name: 'Publishable key' }).click();
    await page.getByLabel('Key').fill(key.publishable_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(agentTurns().first().textContent()).resolves.toContain('Lumen Notes');
    const reply = await send('What does the Plus plan include?');
    await reply.getByTestId('citation-marker').first().waitFor();
    await page.getByTestId('trace-panel').getByTestId('trace').waitFor();
    await expect(page.getByRole('link', { name: 'Threads' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('signin').waitFor();
    // The pasted key is the owner's: signing out forgets it but does not revoke it.
    const keys = await api('get', `/management/v1/agents/${ids.knowledge}/publishable-keys`, undefined, 200, 'keys');
    expect(keys.results.map((k: { id: string }) => k.id)).toEqual([key.id]);
  });
  it('signs in with an email and password (a login session) and refuses a wrong password', async () => {
    const user = await t.factory.user(org);
    await page.getByRole('tab', { name: 'Email and password' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That email and password were not accepted.').waitFor();
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectOption(page, 'Project', /Playground demo/);
    // Management calls carry the session's bearer token, not a key.
    const agentsCall = page.waitForRequest((r) => r.url().includes('/agents?'));
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    expect((await agentsCall).headers().authorization).toMatch(/^Bearer /);
    await page.getByTestId('agent-list').getByText('Trail shop').first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('signin').waitFor();
  });
});

describe('Console under a base path', () => {
  it('is served at <BASE_PATH>/console and under the legacy base path, and calls the API under the prefix it was loaded from', async () => {
    const t = await createTestApp({ BASE_PATH: '/api' });
    const { page, close } = await openChromium();
    try {
      const org = await t.factory.org();
      expectStatus(await t.http.post('/api/management/v1/projects', { name: 'Under a prefix' }, org.headers), 201, 'project');
      expect((await t.http.get('/console/')).status).toBe(404);
      expect((await t.http.get('/playground/')).status).toBe(404);
      for (const prefix of ['/api', '/api-v2']) {
        await page.goto(`${t.baseUrl}${prefix}/playground`);
        expect(page.url()).toBe(`${t.baseUrl}${prefix}/console/`);
        await page.getByLabel('Key').fill(org.apiKey);
        const projects = page.waitForResponse((r) => r.url().includes('/management/v1/projects'));
        await page.getByRole('button', { name: 'Sign in' }).click();
        expect(new URL((await projects).url()).pathname).toBe(`${prefix}/management/v1/projects`);
        await expectOption(page, 'Project', /Under a prefix/);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByTestId('signin').waitFor();
      }
    } finally {
      await close();
      await t.close();
    }
  });
});
