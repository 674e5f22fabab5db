/**
 * Debian's Chromium driven by playwright-core (never a browser download), for the console's browser tests; and
 * axe-core, the accessibility engine, run inside the page.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test', 'artifacts');
// Without the networking flags Chromium keeps trying to reach Google services on a network that has none.
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

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** A new, empty profile; close() also deletes it. */
export async function openChromium(viewport = { width: 1440, height: 900 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: \`npm test\` installs Debian's chromium package (scripts/test.sh)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the select offers an option whose label matches (lists load asynchronously); returns that label. */
export async function expectOption(page: Page, select: string, label: RegExp): Promise<string> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const labels = await page.getByLabel(select, { exact: true }).locator('option').allTextContents();
    const found = labels.find((l) => label.test(l));
    if (found) return found;
  }
  const labels = await page.getByLabel(select, { exact: true }).locator('option').allTextContents();
  throw new Error(`${select} offers no option matching ${label}: ${labels.join(' | ')}`);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/**
 * axe-core's serious and critical violations on the page as it is now. The engine is evaluated through the
 * DevTools protocol, so the page's own CSP (no inline scripts) stays on.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Horizontal overflow of the page: how far the widest element reaches past the viewport (0 = none). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}
