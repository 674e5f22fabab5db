import { liveAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';
/** The replies a chip must never get: the v1 fallback and the v2 decline. */
const FALLBACK = /I'm not sure I understood|I could not find/;

interface Reply {
  thread_id: string;
  message: { text: string; cards: Array<{ json_data: { entity: Record<string, unknown> } }>; followup_suggestions: string[] };
}

/**
 * Both demo agents, clicked as a new user would: every welcome suggestion on a new thread, then every chip its
 * reply offers, one level deep, on that thread. No reply is the fallback; cards fit the chip.
 */
describe('demo chips', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function clickAll(template: string, check: (chip: string, reply: Reply, previous: Reply) => void): Promise<number> {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { template });
    const tpl = await t.http.get(`/management/v1/templates/${template}`, org.headers);
    const starts: string[] = tpl.body.bundle.welcome_suggestions;
    let clicked = 0;
    for (const [i, start] of starts.entries()) {
      const first = await t.http.post(SEND, { text: start, user_id: `u${i}` }, agent.headers);
      expect(first.status).toBe(200);
      const opening = first.body as Reply;
      expect(`${start}: ${opening.message.text}`).not.toMatch(FALLBACK);
      for (const chip of opening.message.followup_suggestions) {
        const res = await t.http.post(SEND, { text: chip, user_id: `u${i}`, thread_id: opening.thread_id }, agent.headers);
        expect(res.status).toBe(200);
        const reply = res.body as Reply;
        expect(`${start} › ${chip}: ${reply.message.text}`).not.toMatch(FALLBACK);
        check(chip, reply, opening);
        clicked += 1;
      }
    }
    return clicked;
  }

  it('shopping-assistant: every chip answers, and its cards keep to what the chip asked', async () => {
    const clicked = await clickAll('shopping-assistant', (chip, reply, previous) => {
      const cards = reply.message.cards.map((c) => c.json_data.entity);
      const before = previous.message.cards.map((c) => c.json_data.entity);
      const limit = /under \$(\d+)/i.exec(chip);
      for (const card of cards) {
        if (limit) expect(Number(card.price)).toBeLessThanOrEqual(Number(limit[1]));
        if (/sale/i.test(chip)) expect(card.on_sale).toBe(true);
        if (/bestseller/i.test(chip)) expect(card.bestseller).toBe(true);
        if (/cheaper/i.test(chip)) {
          expect(Number(card.price)).toBeLessThan(Number(before[0]!.price));
          expect(card.category).toBe(before[0]!.category);
        }
        // "Show it in another colour", "Is it in stock in my size?": about the product just shown.
        if (/\bit\b/i.test(chip)) expect(card.id).toBe(before[0]!.id);
      }
      if (/cheaper/i.test(chip) && !cards.length) expect(reply.message.text).toMatch(/don't have/);
    });
    expect(clicked).toBeGreaterThanOrEqual(6);
  });

  it('knowledge-assistant: every chip answers from the help center', async () => {
    const clicked = await clickAll('knowledge-assistant', (chip, reply) => {
      expect(`${chip}: ${reply.message.text}`).toMatch(/\[\d+\]/);
    });
    expect(clicked).toBeGreaterThanOrEqual(6);
  });

  it("the README's and the Swagger example's shop messages get a fitting top pick", async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { template: 'shopping-assistant' });
    const cases: Array<[string, RegExp, number]> = [
      ['Do you have trail running shoes?', /Running Shoe/, Infinity],
      ['Any hiking boots?', /Hiking Boot/, Infinity],
      ['Do you have running shoes under $100?', /Running Shoe/, 100],
      ['Something for rainy days?', /Rain Jacket/, Infinity],
    ];
    for (const [text, kind, limit] of cases) {
      const res = await t.http.post(SEND, { text, user_id: 'readme' }, shop.headers);
      const cards = (res.body as Reply).message.cards.map((c) => c.json_data.entity);
      expect(cards.length).toBeGreaterThan(0);
      expect(String(cards[0]!.name)).toMatch(kind);
      for (const card of cards) expect(Number(card.price)).toBeLessThanOrEqual(limit);
    }
  });
});
