/**
 * The web widget (docs/widget.md) as a site owner uses it: the copy-paste snippet on a static page served from
 * another origin, driven in Debian's Chromium (playwright-core) against the real app. Screenshots go to
 * test/artifacts/ (git-ignored).
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { ARTIFACTS, openChromium } from '../support/chromium.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(240_000);

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const GZIP_BUDGET = 60 * 1024;
const HOST = '[data-agent-widget]';

/** The hostile page: rules that would hide, move, shrink or recolour the widget if they could reach it. */
const HOSTILE_CSS = `
  * { font-size: 40px !important; color: rgb(255, 0, 0) !important; background: rgb(0, 128, 0) !important; line-height: 3 !important; }
  div, section, form, textarea { display: none !important; }
  body > * { position: absolute !important; left: -9999px !important; opacity: 0 !important; transform: scale(0.2) !important; }
  button { width: 3px !important; height: 3px !important; padding: 0 !important; border: 9px solid red !important; }
  :root { --bg: lime; --fg: red; --accent: red; --accent-fg: red; }
  #page-note { display: block !important; position: static !important; left: auto !important; opacity: 1 !important; transform: none !important; }
`;

/** A static site on its own origin (another port of 127.0.0.1), serving the pages it is given. */
async function staticSite(pages: Record<string, string>): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const html = (title: string, body: string, css = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">${css ? `<style>${css}</style>` : ''}</head>` +
  `<body><main><h1>${title}</h1><p id="page-note">The site's own content.</p></main>${body}</body></html>`;

describe('Web widget on another origin, in Chromium', () => {
  let t: TestApp;
  let org: TestOrg;
  let site: Awaited<ReturnType<typeof staticSite>>;
  let other: Awaited<ReturnType<typeof staticSite>>;
  let page: Page;
  let closeBrowser: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];
  const ids = { help: '', shop: '' };

  const api = async (path: string, body: unknown, step: string) => expectStatus(await t.http.post(path, body, org.headers), 201, step).body;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `widget-${name}.png`) });
  const widget = () => page.locator(HOST);
  const agentTurns = () => widget().locator('.turn.agent');

  async function liveFromTemplate(projectId: string, name: string, runtime: 'v1' | 'v2', template: string): Promise<string> {
    const agent = await api(`/management/v1/projects/${projectId}/agents`, { name, runtime }, `agent ${name}`);
    const version = await api(`/management/v1/agents/${agent.id}/versions`, { source: 'template', template }, 'version');
    expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org.headers),
      200,
      'publish',
    );
    return agent.id as string;
  }

  /** Types a message into the widget and waits until its reply has finished streaming; returns the SSE body. */
  async function send(text: string): Promise<{ body: string; request: Record<string, unknown> }> {
    const before = await agentTurns().count();
    const request = page.waitForRequest((r) => r.url().endsWith('/messaging/v1/messages/stream'));
    await widget().getByLabel('Message').fill(text);
    await page.keyboard.press('Enter');
    const sent = await request;
    await page.waitForFunction(
      ([host, n]) => {
        const root = document.querySelector(host as string)?.shadowRoot;
        const turns = root?.querySelectorAll('.turn.agent') ?? [];
        return turns.length > (n as number) && !root!.querySelector('[aria-busy=true]');
      },
      [HOST, before],
    );
    const body = await page.evaluate(() => (window as unknown as { __streams: Array<{ text: string }> }).__streams.at(-1)!.text);
    return { body, request: sent.postDataJSON() as Record<string, unknown> };
  }

  /**
   * The page keeps a copy of every stream body it reads (a tee of the response, in the page's own fetch): DevTools
   * does not keep the body of a streamed response.
   */
  function recordStreams(): void {
    void page.addInitScript(() => {
      const streams: Array<{ text: string }> = [];
      const fetch = window.fetch.bind(window);
      Object.assign(window, { __streams: streams });
      window.fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).endsWith('/messaging/v1/messages/stream') || !response.body) return response;
        const [mine, copy] = response.body.tee();
        const entry = { text: '' };
        streams.push(entry);
        void (async () => {
          const decoder = new TextDecoder();
          for (const reader = copy.getReader(); ;) {
            const { value, done } = await reader.read();
            if (done) return;
            entry.text += decoder.decode(value, { stream: true });
          }
        })();
        return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
      };
    });
  }

  const sseEvents = (body: string, name: string) =>
    [...body.matchAll(new RegExp(`^event: ${name}\\ndata: (.*)$`, 'gm'))].map((m) => JSON.parse(m[1]!) as Record<string, any>);

  /** axe-core in the page, over the widget's element (its shadow tree included): the serious and critical findings. */
  async function accessibilityViolations(): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
    await page.addScriptTag({ path: AXE_SOURCE });
    return page.evaluate(async (host) => {
      const axe = (window as unknown as { axe: any }).axe;
      const result = await axe.run({ include: [host] }, { resultTypes: ['violations'] });
      return result.violations
        .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: { id: string; impact: string; nodes: Array<{ target: unknown }> }) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.map((n) => JSON.stringify(n.target)),
        }));
    }, HOST);
  }

  const activeInWidget = () =>
    page.evaluate((host) => {
      const active = document.querySelector(host)?.shadowRoot?.activeElement;
      return active ? (active.getAttribute('aria-label') ?? active.id) : null;
    }, HOST);

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestApp();
    org = await t.factory.org();
    const project = await api('/management/v1/projects', { name: 'Website' }, 'project');
    ids.help = await liveFromTemplate(project.id, 'Help center', 'v2', 'knowledge-assistant');
    ids.shop = await liveFromTemplate(project.id, 'Trail shop', 'v1', 'shopping-assistant');
    // The site's origin is known only once it listens; its pages read the keys when requested.
    const pages: Record<string, string> = {};
    site = await staticSite(pages);
    other = await staticSite(pages);
    const key = async (agentId: string) =>
      (await api(`/management/v1/agents/${agentId}/publishable-keys`, { allowed_origins: [site.origin] }, 'key')).publishable_key as string;
    const snippet = (k: string, attributes = '') =>
      `<script src="${t.baseUrl}/widget.js" data-publishable-key="${k}" ${attributes} defer></script>`;
    const helpKey = await key(ids.help);
    const shopKey = await key(ids.shop);
    pages['/help.html'] = html('Lumen Notes help', snippet(helpKey, 'data-title="Lumen help"'));
    pages['/shop.html'] = html('Trail shop', snippet(shopKey, 'data-open="true" data-theme="dark" data-user-id="customer-17"'));
    // Its own visitor id: a conversation of its own, not the one the help page left open in this tab.
    pages['/hostile.html'] = html(
      'Hostile styles',
      `<button id="page-button">Page button</button>${snippet(helpKey, 'data-user-id="hostile-visitor"')}`,
      HOSTILE_CSS,
    );

    ({ page, close: closeBrowser } = await openChromium());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    recordStreams();
  });

  afterEach(() => expect(pageErrors).toEqual([]));

  afterAll(async () => {
    await closeBrowser?.();
    await site?.close();
    await other?.close();
    await t?.close();
  });

  it('serves /widget.js to any site: script type, cache and cross-origin headers, ETag revalidation, under the gzip budget', async () => {
    const res = await fetch(`${t.baseUrl}/widget.js`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        ['content-type', 'cache-control', 'access-control-allow-origin', 'cross-origin-resource-policy'].map((h) => [
          h,
          res.headers.get(h),
        ]),
      ),
    ).toEqual({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    expect(gzipSync(body).length).toBeLessThanOrEqual(GZIP_BUDGET);
    const again = await fetch(`${t.baseUrl}/widget.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${t.baseUrl}/widget.js`, { method: 'POST' })).status).toBe(405);
  });

  it('on a knowledge agent: opens from the keyboard, streams a reply whose [n] markers show their sources', async () => {
    await page.goto(`${site.origin}/help.html`);
    const launcher = widget().getByRole('button', { name: 'Open chat: Lumen help' });
    await launcher.waitFor();
    // The page has no other control: the first Tab reaches the launcher, Enter opens the chat with focus in its box.
    await page.keyboard.press('Tab');
    await expect(activeInWidget()).resolves.toBe('Open chat: Lumen help');
    await page.keyboard.press('Enter');
    await widget().getByRole('dialog', { name: 'Lumen help' }).waitFor();
    await expect(activeInWidget()).resolves.toBe('agent-widget-input');
    await agentTurns().first().filter({ hasText: 'Lumen Notes' }).waitFor();

    const { body, request } = await send('How do I export all my notes?');
    expect(request.thread_id).toBeUndefined();
    expect(request.include_trace).toBeUndefined();
    const deltas = sseEvents(body, 'delta').map((d) => d.text as string);
    const [final] = sseEvents(body, 'message');
    const message = final!.message;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(message.text);
    expect(message.citations.length).toBeGreaterThan(0);
    expect(message.trace_info).toBeUndefined();
    const reply = agentTurns().last();
    // The shown text is the reply with each cited marker as a numbered button.
    const cited = new Set(message.citations.map((c: { marker: number }) => c.marker));
    const shown = message.text.replace(/\s?\[(\d{1,3})\]/g, (all: string, n: string) => (cited.has(Number(n)) ? n : all));
    await expect(reply.locator('.text').textContent()).resolves.toBe(shown);

    const citation = message.citations[0];
    const marker = reply.getByRole('button', { name: `Source ${citation.marker}: ${citation.title}` }).first();
    await marker.click();
    await expect(marker.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(reply.locator('.sources li.shown blockquote').textContent()).resolves.toBe(citation.text);
    if (citation.url) {
      await expect(reply.locator('.sources li.shown a').getAttribute('href')).resolves.toBe(new URL(citation.url).href);
    }
    await shot('knowledge-citation');
    await expect(accessibilityViolations()).resolves.toEqual([]);

    // The conversation is a thread of the service, under the widget's anonymous visitor id.
    const threads = expectStatus(
      await t.http.get(`/management/v1/threads?agent_id=${ids.help}&runtime_version=2`, org.headers),
      200,
      'threads',
    ).body;
    expect(threads.results).toHaveLength(1);
    expect(threads.results[0].user_id).toMatch(/^web-[0-9a-f]{16}$/);

    // Escape closes the chat and gives focus back to the launcher.
    await page.keyboard.press('Escape');
    await widget().getByRole('dialog').waitFor({ state: 'detached' });
    await expect(activeInWidget()).resolves.toBe('Open chat: Lumen help');
  });

  it('continues the same thread after the visitor moves to another page', async () => {
    const [thread] = expectStatus(
      await t.http.get(`/management/v1/threads?agent_id=${ids.help}&runtime_version=2`, org.headers),
      200,
      'threads',
    ).body.results;
    await page.goto(`${site.origin}/help.html`);
    await widget().getByRole('button', { name: 'Open chat: Lumen help' }).click();
    // The earlier turns are back (greeting, question, reply) and the next message goes to the same thread.
    await expect(widget().locator('.turn').count()).resolves.toBe(3);
    const { request } = await send('What does the Plus plan include?');
    expect(request.thread_id).toBe(thread.id);
    const threads = expectStatus(
      await t.http.get(`/management/v1/threads?agent_id=${ids.help}&runtime_version=2`, org.headers),
      200,
      'threads',
    ).body;
    expect(threads.results).toHaveLength(1);
  });

  it('on a shop agent: cards with variants and the top pick, chips that send, in the dark theme, open on load', async () => {
    await page.goto(`${site.origin}/shop.html`);
    // data-open shows the chat at once, but leaves the page's focus where it was.
    await widget().getByRole('dialog', { name: 'Chat' }).waitFor();
    await expect(activeInWidget()).resolves.toBeNull();
    await agentTurns().first().locator('.text').waitFor();

    const { body, request } = await send('Trail running shoes in size 10');
    expect(request.user_id).toBe('customer-17');
    const message = sseEvents(body, 'message')[0]!.message;
    const reply = agentTurns().last();
    const cards = reply.locator('.card');
    expect(message.cards.length).toBeGreaterThan(0);
    await expect(cards.count()).resolves.toBe(message.cards.length);
    await expect(reply.locator('.card.recommended .badge').textContent()).resolves.toBe('Top pick');
    const variants = cards.first().locator('details.variants');
    await variants.locator('summary').click();
    await expect(variants.locator('tbody tr').count()).resolves.toBeGreaterThan(0);
    await shot('shop-cards-dark');
    await expect(accessibilityViolations()).resolves.toEqual([]);

    const chip = widget().getByRole('group', { name: 'Suggestions' }).getByRole('button').first();
    const chipText = (await chip.textContent())!;
    const next = page.waitForRequest((r) => r.url().endsWith('/messaging/v1/messages/stream'));
    await chip.click();
    expect((await next).postDataJSON()).toMatchObject({
      text: chipText,
      user_id: 'customer-17',
      thread_id: sseEvents(body, 'thread')[0]!.thread_id,
    });
    await widget().locator('.turn.user').filter({ hasText: chipText }).waitFor();
  });

  it('is not shown on a site the key’s allowed origins leave out', async () => {
    const warning = page.waitForEvent('console', (m) => m.text().startsWith('[agent widget] not shown'));
    const token = page.waitForResponse((r) => r.url().endsWith('/management/v1/auth/token'));
    await page.goto(`${other.origin}/help.html`);
    expect((await token).status()).toBe(400);
    expect((await warning).text()).toContain(`this page's origin (${other.origin}) is not in the publishable key's allowed_origins`);
    await expect(widget().count()).resolves.toBe(0);
  });

  it('keeps its look and works under hostile page CSS, and leaves the page’s styles alone', async () => {
    await page.goto(`${site.origin}/hostile.html`);
    const launcher = widget().getByRole('button', { name: 'Open chat: Chat' });
    await launcher.waitFor();
    const viewport = page.viewportSize()!;
    const box = (await launcher.boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([56, 56]);
    expect(Math.round(box.x + box.width)).toBe(viewport.width - 20);
    expect(Math.round(box.y + box.height)).toBe(viewport.height - 20);
    await launcher.click();
    const panel = widget().getByRole('dialog');
    await panel.waitFor();
    expect(Math.round((await panel.boundingBox())!.width)).toBe(380);
    const { body } = await send('How do I export all my notes?');
    expect(sseEvents(body, 'done')).toHaveLength(1);
    const styles = await page.evaluate((host) => {
      const root = document.querySelector(host)!.shadowRoot!;
      const text = getComputedStyle(root.querySelector('.turn.agent .text')!);
      return {
        launcher: getComputedStyle(root.querySelector('.launcher')!).backgroundColor,
        text: [text.fontSize, text.color],
        // The page: its own rules still apply, and the widget added no stylesheet to it.
        pageNote: getComputedStyle(document.getElementById('page-note')!).fontSize,
        pageButtonCursor: getComputedStyle(document.getElementById('page-button')!).cursor,
        pageSheets: document.styleSheets.length + document.adoptedStyleSheets.length,
      };
    }, HOST);
    expect(styles).toEqual({
      launcher: 'rgb(29, 78, 216)',
      text: ['14px', 'rgb(27, 29, 33)'],
      pageNote: '40px',
      pageButtonCursor: 'default',
      pageSheets: 1,
    });
    await shot('hostile-css');
  });
});
