import type { HttpTool } from '../../../bundles/bundle.types.js';
import { buildHttpToolRequest, compileHttpTool, httpToolTrigger, interpretHttpResult, parsePointer, resolvePointer } from './http-tool.js';

const tool = (overrides: Partial<HttpTool> = {}) =>
  compileHttpTool({
    code: 'order_status',
    type: 'http',
    method: 'GET',
    url: 'https://orders.example.com/orders/{order_id}?q={query}',
    response: { message: 'Order {order_id}: {status}', fields: { status: '/order/status', tilde: '/a~1b/c~0d', first: '/list/0' } },
    ...overrides,
  });

describe('HTTP tool mapping', () => {
  it('resolves RFC 6901 pointers, escapes and array indexes included', () => {
    const doc = { order: { status: 'shipped' }, 'a/b': { 'c~d': 7 }, list: ['x', 'y'] };
    expect(resolvePointer(doc, parsePointer('/order/status'))).toBe('shipped');
    expect(resolvePointer(doc, parsePointer('/a~1b/c~0d'))).toBe(7);
    expect(resolvePointer(doc, parsePointer('/list/1'))).toBe('y');
    expect(resolvePointer(doc, parsePointer('/list/01'))).toBeUndefined();
    expect(resolvePointer(doc, parsePointer('/list/-'))).toBeUndefined();
    expect(resolvePointer(doc, parsePointer(''))).toBe(doc);
    expect(resolvePointer(doc, parsePointer('/order/status/length'))).toBeUndefined();
    expect(resolvePointer(doc, parsePointer('/__proto__'))).toBeUndefined();
  });

  it('percent-encodes every placeholder so no value can change the path, query or host', () => {
    const request = buildHttpToolRequest(
      tool(),
      new Map<string, string | number | boolean>([
        ['order_id', 'A1/../admin?x=1#y'],
        ['query', 'a&b=c d'],
      ]),
    );
    expect(request.url).toBe('https://orders.example.com/orders/A1%2F..%2Fadmin%3Fx%3D1%23y?q=a%26b%3Dc%20d');
    expect(request.body).toBeUndefined();
    expect(request.paramsSent).toEqual(['order_id', 'query']);
  });

  it('skips when a parameter it sends is missing or is only dots', () => {
    expect(httpToolTrigger(tool(), null, new Map([['order_id', 'A1']]))).toEqual({ run: false, reason: 'parameter query not computed' });
    expect(
      httpToolTrigger(
        tool(),
        null,
        new Map([
          ['order_id', '..'],
          ['query', 'x'],
        ]),
      ),
    ).toMatchObject({ run: false });
    expect(
      httpToolTrigger(
        tool(),
        null,
        new Map([
          ['order_id', 'A1'],
          ['query', 'x'],
        ]),
      ),
    ).toMatchObject({ run: true });
  });

  it('keeps answers storable: NUL and lone surrogates removed, long strings cut', () => {
    const t = tool();
    const params = new Map<string, string | number | boolean>([
      ['order_id', 'A1'],
      ['query', 'x'],
    ]);
    const body = Buffer.from(JSON.stringify({ order: { status: `ship\u0000ped\ud800${'!'.repeat(5000)}` } }));
    const run = interpretHttpResult(t, 'why', buildHttpToolRequest(t, params), params, {
      ok: true,
      status: 200,
      latencyMs: 3,
      body,
      truncated: false,
    });
    expect(run.ok).toBe(true);
    expect(run.text).toBe(`Order A1: shipped${'!'.repeat(2000 - 'ship\u0000ped\ud800'.length)}`);
  });
});
