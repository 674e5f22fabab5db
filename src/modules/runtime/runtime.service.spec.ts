import { jest } from '@jest/globals';
import SearchableMap from 'minisearch/SearchableMap';
import { KB_BUNDLE } from '../../../test/fixtures/runtime/kb.fixture.js';
import { agentFor, collect, newRuntime, turn } from '../../../test/fixtures/runtime/runtime.fixture.js';
import { SHOP_BUNDLE } from '../../../test/fixtures/runtime/shop.fixture.js';
import type { Bundle } from '../bundles/bundle.types.js';
import { tokenPieces } from './text/terms.js';

describe('RuntimeService', () => {
  const runtime = newRuntime();

  describe('prepare', () => {
    it('builds once per digest and reuses the prepared agent', () => {
      const rt = newRuntime();
      const a = rt.prepare({ digest: 'sha256:aaa', runtime: 'v1', bundle: SHOP_BUNDLE });
      const b = rt.prepare({ digest: 'sha256:aaa', runtime: 'v1', bundle: SHOP_BUNDLE });
      expect(b).toBe(a);
      expect(b.v1!.tools[0]!.postings).toBe(a.v1!.tools[0]!.postings);
      const c = rt.prepare({ digest: 'sha256:bbb', runtime: 'v1', bundle: SHOP_BUNDLE });
      expect(c).not.toBe(a);
      const kb = rt.prepare({ digest: 'sha256:ccc', runtime: 'v2', bundle: KB_BUNDLE });
      expect(kb.v2!.passages.length).toBeGreaterThan(0);
      expect(kb.v1).toBeUndefined();
    });

    it('does not rebuild anything per message', async () => {
      const rt = newRuntime();
      const agent = rt.prepare({ digest: 'sha256:ddd', runtime: 'v1', bundle: SHOP_BUNDLE });
      const build = jest.spyOn(SearchableMap, 'from');
      await rt.run(agent, turn('running shoes'));
      await rt.run(rt.prepare({ digest: 'sha256:ddd', runtime: 'v1', bundle: SHOP_BUNDLE }), turn('trail shoes'));
      expect(build).not.toHaveBeenCalled();
      build.mockRestore();
    });

    it('defaults to the builtin provider and answers an empty bundle', async () => {
      const agent = agentFor(runtime, 'v1', {});
      expect(agent.provider).toBe('builtin');
      const r = await runtime.run(agent, turn('hello?'));
      expect(r.text).toMatch(/not sure I understood/);
      expect(r.trace.model).toEqual({ provider: 'builtin', name: null, endpoint: null, writer: 'builtin' });
      const v2 = agentFor(runtime, 'v2', {});
      const answer = await runtime.run(v2, turn('anything'));
      expect(answer.text).toMatch(/could not find this in the knowledge base/);
      expect(answer.trace.model).toEqual({ provider: 'builtin', name: null, endpoint: null, writer: 'builtin' });
    });
  });

  describe('stream', () => {
    it('v1: token-sized deltas, then cards, then exactly one result; deltas concatenate to the text', async () => {
      const agent = agentFor(runtime, 'v1', SHOP_BUNDLE);
      const { events, deltas, result } = await collect(runtime.stream(agent, turn('running shoes under $100')));
      expect(deltas.join('')).toBe(result.text);
      expect(deltas.length).toBeGreaterThan(10);
      expect(Math.max(...deltas.map((d) => d.length))).toBeLessThan(20);
      const kinds = events.map((e) => e.type);
      const firstCard = kinds.indexOf('card');
      expect(kinds.lastIndexOf('delta')).toBeLessThan(firstCard);
      expect(kinds[kinds.length - 1]).toBe('result');
      expect(events.filter((e) => e.type === 'card').map((e) => (e.type === 'card' ? e.card : null))).toEqual(result.cards);
      expect(result).toEqual(await runtime.run(agent, turn('running shoes under $100')));
    });

    it('v2: deltas concatenate to the cited answer', async () => {
      const agent = agentFor(runtime, 'v2', KB_BUNDLE);
      const { deltas, result, events } = await collect(runtime.stream(agent, turn('How long does standard shipping take?')));
      expect(deltas.join('')).toBe(result.text);
      expect(result.text).toContain('[1]');
      expect(events.some((e) => e.type === 'card')).toBe(false);
    });

    it('rejects an unknown build pin before any event', async () => {
      const agent = agentFor(runtime, 'v2', KB_BUNDLE);
      await expect(collect(runtime.stream(agent, turn('hi', { runtimeVersion: '4' })))).rejects.toMatchObject({
        status: 422,
        code: 'validation_error',
      });
    });

    it('splits text into pieces that concatenate exactly', () => {
      const text = 'Here are 2 matches:\n1. Aero ($89) — top pick!\n\nOrders over $80 ship free. Ünïcode wörks [1].';
      expect(tokenPieces(text).join('')).toBe(text);
    });
  });

  describe('runtime builds', () => {
    it('exposes which pins each runtime accepts', () => {
      expect(runtime.supportsRuntimeBuild('v2', undefined)).toBe(true);
      expect(runtime.supportsRuntimeBuild('v2', '2')).toBe(true);
      expect(runtime.supportsRuntimeBuild('v2', '2.1.0')).toBe(true);
      expect(runtime.supportsRuntimeBuild('v2', '2.0')).toBe(true);
      expect(runtime.supportsRuntimeBuild('v2', '3')).toBe(false);
      expect(runtime.supportsRuntimeBuild('v1', undefined)).toBe(true);
      expect(runtime.supportsRuntimeBuild('v1', '2')).toBe(false);
      expect(runtime.runtimeBuilds()).toEqual({ v1: ['1.0.0'], v2: ['2.0.0', '2.1.0'] });
    });

    it('v1 agents ignore runtime_version', async () => {
      const agent = agentFor(runtime, 'v1', SHOP_BUNDLE);
      const r = await runtime.run(agent, turn('running shoes', { runtimeVersion: '2.1' }));
      expect(r.runtimeBuild).toBe('1.0.0');
    });
  });

  describe('welcome and suggest', () => {
    it('returns the configured greeting and suggestions, with sensible defaults', () => {
      expect(runtime.welcome(agentFor(runtime, 'v1', SHOP_BUNDLE))).toEqual({
        welcome_message: 'Hi! I can help you find running shoes and gear.',
        followup_suggestions: ['Show me running shoes', 'Trail shoes under $120'],
      });
      const bare: Bundle = { name: 'Bot', followups: { default: ['Ask me anything'] } };
      expect(runtime.welcome(agentFor(runtime, 'v2', bare))).toEqual({
        welcome_message: "Hi! I'm Bot. How can I help you today?",
        followup_suggestions: ['Ask me anything'],
      });
    });

    it('suggests the intent follow-ups, then content prompts, then defaults, up to the limit', () => {
      const shop = agentFor(runtime, 'v1', SHOP_BUNDLE);
      const s = runtime.suggest(shop, { text: 'do you have trail shoes' }, 4);
      expect(s).toHaveLength(4);
      expect(s.slice(0, 2)).toEqual(['Do you have it in another colour?', 'Show me cheaper options']);
      expect(s[2]).toBe('Show me more like Trail Blazer GTX');
      expect(runtime.suggest(shop, { text: 'do you have trail shoes' }, 1)).toEqual(['Do you have it in another colour?']);

      const kb = agentFor(runtime, 'v2', KB_BUNDLE);
      const fromHistory = runtime.suggest(
        kb,
        {
          history: [
            { role: 'user', text: 'how do refunds work' },
            { role: 'agent', text: '...' },
          ],
        },
        5,
      );
      expect(fromHistory).toContain('How do I print a return label?');
      expect(fromHistory).toContain('Tell me more about Returns and refunds');
      expect(runtime.suggest(kb, {}, 3)).toEqual(['How long does shipping take?']);
    });
  });
});
