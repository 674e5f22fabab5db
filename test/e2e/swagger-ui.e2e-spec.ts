/**
 * Swagger UI at /docs in Chromium: "Try it out" on a write gets a fresh Idempotency-Key per Execute (issue 33), so
 * an edited second try is a new request instead of a 422 or a silent replay.
 */
import { jest } from '@jest/globals';
import { openChromium } from '../support/chromium.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

jest.setTimeout(120_000);

describe('Swagger UI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents Idempotency-Key without a fixed example and sends a fresh key on every Execute of a write', async () => {
    const document = (await t.http.get('/openapi.json')).body;
    const headers = Object.values<Record<string, { parameters?: Array<{ name: string; schema: Record<string, unknown> }> }>>(document.paths)
      .flatMap((operations) => Object.values(operations))
      .flatMap((operation) => operation.parameters ?? [])
      .filter((parameter) => parameter.name === 'Idempotency-Key');
    expect(headers.length).toBeGreaterThan(5);
    expect(headers.filter((parameter) => 'example' in parameter.schema || 'example' in parameter)).toEqual([]);

    const { page, close } = await openChromium();
    try {
      await page.goto(`${t.baseUrl}/docs`);
      await page.locator('.opblock').first().waitFor();
      // The interceptor as Swagger UI runs it in the page, on the request "Execute" builds.
      const sent = await page.evaluate(() => {
        const { requestInterceptor } = (
          window as unknown as { ui: { getConfigs(): { requestInterceptor: (r: object) => any } } }
        ).ui.getConfigs();
        return [
          requestInterceptor({ method: 'POST', url: '/management/v1/projects', headers: {} }).headers,
          requestInterceptor({ method: 'POST', url: '/management/v1/projects', headers: {} }).headers,
          requestInterceptor({ method: 'POST', url: '/management/v1/projects', headers: { 'Idempotency-Key': 'typed' } }).headers,
          requestInterceptor({ method: 'GET', url: '/management/v1/projects', headers: {} }).headers,
        ];
      });
      const [first, second, typed, read] = sent as Array<Record<string, string>>;
      expect(first!['Idempotency-Key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(second!['Idempotency-Key']).not.toBe(first!['Idempotency-Key']);
      expect([typed, read]).toEqual([{ 'Idempotency-Key': 'typed' }, {}]);
    } finally {
      await close();
    }
  });
});
