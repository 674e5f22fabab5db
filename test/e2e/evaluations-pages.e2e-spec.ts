/**
 * The evaluations and analytics pages of the playground (docs/evaluations.md) in Debian's Chromium: feedback thumbs on a
 * reply, an evaluation run that shows the regression a new version brings, and the analytics charts with data.
 * Screenshots go to test/artifacts/ (git-ignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { chromium, type Page } from 'playwright-core';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { expectOption } from '../support/chromium.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test', 'artifacts');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const brokenBundle: Bundle = {
  ...helpBundle,
  knowledge: helpBundle.knowledge!.map((doc) => (doc.id === 'returns' ? { ...doc, text: doc.text.replace('30 days', '14 days') } : doc)),
};

jest.setTimeout(240_000);

describe('evaluations and analytics pages in Chromium', () => {
  let t: TestApp;
  let org: TestOrg;
  let help: LiveTestAgent;
  let broken: string;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `evaluations-${name}.png`), fullPage: true });

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: \`npm test\` installs Debian's chromium package (scripts/test.sh)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    org = await t.factory.org();
    help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const agentPath = `/management/v1/agents/${help.agentId}`;
    const cases = [
      {
        name: 'Return window',
        turns: [{ text: 'How many days do I have to return an item?', expect: { contains: ['30 days'], cites: ['returns'] } }],
      },
      {
        name: 'Out of scope',
        turns: [{ text: 'How do I return a Kubernetes deployment to a previous revision?', expect: { declines: true } }],
      },
    ];
    expectStatus(await t.http.post(`${agentPath}/test-cases/import`, { test_cases: cases }, org.headers), 201, 'import');
    // The live version's run: what the page's run of the new version is compared with.
    const run = expectStatus(
      await t.http.post(`${agentPath}/versions/${help.versionId}/evaluations`, undefined, org.headers),
      202,
      'run',
    ).body;
    await waitFor(
      async () =>
        (await t.http.get(`${agentPath}/versions/${help.versionId}/evaluations/${run.id}`, org.headers)).body.status === 'completed',
      'the live version evaluated',
      60_000,
    );
    broken = expectStatus(
      await t.http.post(`${agentPath}/versions`, { source: 'clone', from_version_id: help.versionId }, org.headers),
      201,
      'clone',
    ).body.id;
    expectStatus(await t.http.post(`${agentPath}/versions/${broken}/push`, { bundle: brokenBundle }, org.headers), 200, 'push');
    // Some conversations for the analytics page.
    for (const text of ['How long does standard shipping take?', 'How do I return a Kubernetes deployment to a previous revision?']) {
      expectStatus(await t.http.post('/messaging/v1/messages', { text, user_id: `u-${text.length}` }, help.headers), 200, 'send');
    }

    const userDataDir = mkdtempSync(join(tmpdir(), 'evaluations-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1440, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    close = async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await close?.();
    await t?.close();
  });
  afterEach(() => expect(pageErrors).toEqual([]));

  it('rates a reply with the thumbs, runs an evaluation that shows the regression, and charts the analytics', async () => {
    await page.goto(`${t.baseUrl}/console`);
    await page.getByLabel('Key').fill(org.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Agent', { exact: true }).locator(`option[value="${help.agentId}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Agent', { exact: true }).selectOption(help.agentId);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    const live = await expectOption(page, 'Version', /live/);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: live });
    await page.getByTestId('start-chat').click();

    // Feedback thumbs on a reply: the rating is recorded for the message.
    await page.getByLabel('Message').fill('How many days do I have to return an item?');
    await page.getByRole('button', { name: 'Send' }).click();
    const thumb = page.getByTestId('thumb-up').last();
    await thumb.waitFor();
    await thumb.click();
    await page.locator('[data-testid=thumb-up][aria-pressed=true]').waitFor();
    const rated = (await t.http.get(`/management/v1/agents/${help.agentId}/feedback?rating=up`, org.headers)).body.results;
    expect(rated).toHaveLength(1);
    await shot('chat-thumbs');

    // The evaluations page: run the new version; the regression is shown first, with its reason.
    await page.getByRole('link', { name: 'Evaluations', exact: true }).click();
    await page.getByLabel('Version to evaluate').locator(`option[value="${broken}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Version to evaluate').selectOption(broken);
    await page.getByTestId('run-evaluation').click();
    const regression = page.getByTestId('case-regression');
    await regression.waitFor({ timeout: 60_000 });
    await expect(regression.textContent()).resolves.toContain('Return window');
    await expect(regression.textContent()).resolves.toContain('the reply does not contain "30 days"');
    await expect(page.getByTestId('comparison').textContent()).resolves.toContain('1 regression');
    await expect(page.getByTestId('evaluation-summary').textContent()).resolves.toContain('1 of 2 cases passed');
    await shot('run-regression');

    // The analytics page: bars per arm and the figures behind them.
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await page.locator('[data-testid=analytics-chart] canvas').waitFor();
    const rows = page.getByTestId('analytics-table').locator('tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toMatch(/👍|\d+ \/ \d+/);
    await page.getByLabel('Group by').selectOption('day');
    await page.locator('[data-testid=analytics-chart] canvas').waitFor();
    await shot('analytics');
  });
});
