import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Bundle, HttpTool } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

interface OperatorCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The signature checked with the agent's secret by the Standard Webhooks reference implementation. */
  verified: boolean;
  verifyError?: string;
}

/**
 * The operator's order system, speaking plain HTTP on loopback. It verifies every call's Standard Webhooks
 * signature with the agent's tool signing secret (fetched from the management API) and answers by order number:
 * `A…` found, `F…` a 500, `H…` never answers, `J…` not JSON, `R…` a redirect to another order.
 */
class OperatorServer {
  readonly calls: OperatorCall[] = [];
  secret = '';
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const call: OperatorCall = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, verified: false };
    try {
      new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
      call.verified = true;
    } catch (error) {
      call.verifyError = (error as Error).message;
    }
    this.calls.push(call);
    const path = new URL(req.url ?? '/', 'http://operator').pathname;
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const order = decodeURIComponent(path.split('/').pop() ?? '');
    if (path.startsWith('/cancel')) return json(200, { result: { state: 'cancelled' } });
    if (order.startsWith('A')) {
      return json(200, {
        order: { id: order, status: 'shipped', eta: '2026-12-01', carrier: 'UPS', weight: 1.5 },
        items: [
          { name: 'Ridge Runner Trail Shoe', qty: 1 },
          { name: 'Wool socks', qty: 2 },
        ],
      });
    }
    if (order.startsWith('F')) return json(500, { error: 'database down' });
    if (order.startsWith('N')) {
      return json(200, {
        order: { id: order, status: 'out\u0000 for\ud800 delivery', eta: 'today' },
        items: [{ name: 'Cap\u0000', qty: 1 }],
      });
    }
    if (order.startsWith('H')) {
      this.hanging.add(res);
      return;
    }
    if (order.startsWith('J')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
      return;
    }
    if (order.startsWith('R')) {
      res.writeHead(302, { location: `http://127.0.0.1:${this.port}/orders/A1` });
      res.end();
      return;
    }
    json(404, { error: 'no such order' });
  }
}

function orderTool(base: string, overrides: Partial<HttpTool> = {}): HttpTool {
  return {
    code: 'order_status',
    type: 'http',
    method: 'GET',
    url: `${base}/orders/{order_id}?source=chat`,
    headers: { 'x-api-key': 'operator-key-123' },
    intents: ['order_status'],
    timeout_ms: 1500,
    response: {
      message: 'Order {order_id} is {status} and should arrive on {eta}.',
      fields: { status: '/order/status', eta: '/order/eta', carrier: '/order/carrier', weight: '/order/weight' },
      card: { title: 'Order {order_id}' },
      items: { pointer: '/items', fields: { name: '/name', qty: '/qty' }, title_field: 'name', max_items: 5 },
    },
    fallback_message: "I can't reach the order system right now; please try again in a few minutes.",
    ...overrides,
  };
}

function orderBundle(base: string, tools?: Bundle['tools']): Bundle {
  return {
    name: 'Order desk',
    welcome_message: 'Hi! Ask me about your order.',
    intents: [
      { name: 'order_status', examples: ['where is my order', 'what is the status of my order', 'track my order', 'has my order shipped'] },
      { name: 'cancel_order', examples: ['cancel my order', 'please cancel order', 'I want to cancel my order'] },
    ],
    parameters: [{ code: 'order_id', title: 'Order number', type: 'string', pattern: '\\b([a-z]\\d{2,})\\b' }],
    tools: tools ?? [
      orderTool(base),
      {
        code: 'cancel_order',
        type: 'http',
        method: 'POST',
        url: `${base}/cancel`,
        body_params: ['order_id'],
        intents: ['cancel_order'],
        response: { message: 'Order {order_id} is now {state}.', fields: { state: '/result/state' } },
      },
    ],
  };
}

type Decision = Record<string, any>;

describe('HTTP tools (v1 engine)', () => {
  let t: TestApp;
  let org: TestOrg;
  let agent: LiveTestAgent;
  const operator = new OperatorServer();
  let base: string;

  beforeAll(async () => {
    await operator.start();
    base = `http://127.0.0.1:${operator.port}`;
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    operator.calls.length = 0;
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: orderBundle(base), runtime: 'v1' });
    operator.secret = expectStatus(
      await t.http.get(`/management/v1/agents/${agent.agentId}/tool-signing-secret`, org.headers),
      200,
      'signing secret',
    ).body.secret;
  });
  afterAll(async () => {
    await t.close();
    await operator.stop();
  });

  const send = async (text: string) => {
    const res = await t.http.post(SEND, { text, user_id: 'u1', include_trace: true }, agent.headers);
    expect(res.status).toBe(200);
    return res.body as { thread_id: string; message: { text: string; cards: any[]; trace_info: { decisions: Decision[] } } };
  };
  const decision = (turn: Awaited<ReturnType<typeof send>>, tool: string) =>
    turn.message.trace_info.decisions.find((d) => d.tool === tool)!;

  it('answers an order-status question from the operator, signed, mapped into reply, cards and trace', async () => {
    const turn = await send('Where is my order A123?');
    expect(turn.message.text).toBe('Order A123 is shipped and should arrive on 2026-12-01.');

    expect(operator.calls).toHaveLength(1);
    const [call] = operator.calls;
    expect(call!.method).toBe('GET');
    expect(call!.url).toBe('/orders/A123?source=chat');
    expect(call!.headers['x-api-key']).toBe('operator-key-123');
    expect(call!.verifyError).toBeUndefined();
    expect(call!.verified).toBe(true);
    expect(call!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(call!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);

    expect(turn.message.cards.map((c) => [c.capability, c.title, c.index, c.is_recommended])).toEqual([
      ['order_status', 'Order A123', 0, true],
      ['order_status', 'Ridge Runner Trail Shoe', 1, false],
      ['order_status', 'Wool socks', 2, false],
    ]);
    expect(turn.message.cards[0].json_data).toEqual({
      entity: { status: 'shipped', eta: '2026-12-01', carrier: 'UPS', weight: 1.5 },
      sub_entities: [],
    });
    expect(turn.message.cards[2].json_data.entity).toEqual({ name: 'Wool socks', qty: 2 });
    expect(turn.message.cards[0].rendered_jsx).toContain('OrderStatusCard');

    expect(decision(turn, 'order_status')).toMatchObject({
      type: 'tool_call',
      status: 'completed',
      check_status: 'passed',
      matched_branch: 'response',
      qualified: true,
      trigger_type: 'intent',
      fail_reason: '',
      output_param: 'order_status.response',
      http: {
        method: 'GET',
        url: `${base}/orders/{order_id}?source=chat`,
        status: 200,
        latency_ms: expect.any(Number),
        params_sent: ['order_id'],
        failure_reason: '',
      },
    });
    expect(decision(turn, 'cancel_order')).toMatchObject({ status: 'skipped', matched_branch: 'skipped', http: { status: null } });

    // The stored trace (management) holds the same decision.
    const stored = await t.http.get(`/management/v1/threads/${turn.thread_id}/trace`, org.headers);
    expect(stored.status).toBe(200);
    expect(stored.body.results[0].decisions.find((d: Decision) => d.tool === 'order_status').http.status).toBe(200);
  });

  it('percent-encodes parameters into the URL and sends body parameters as signed JSON', async () => {
    const turn = await send('Please cancel order B77');
    expect(turn.message.text).toBe('Order B77 is now cancelled.');
    const [call] = operator.calls;
    expect(call!.method).toBe('POST');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call!.body)).toEqual({ order_id: 'B77' });
    expect(call!.verified).toBe(true);
    expect(decision(turn, 'cancel_order').http).toMatchObject({ method: 'POST', status: 200, params_sent: ['order_id'] });
  });

  it('streams the same answer over SSE: deltas of the mapped reply, then its cards', async () => {
    const stream = await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
      headers: agent.headers,
      body: { text: 'Where is my order A777?', user_id: 'u1', include_trace: true },
    });
    expect(stream.status).toBe(200);
    const events = await stream.collect();
    const text = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join('');
    expect(text).toBe('Order A777 is shipped and should arrive on 2026-12-01.');
    expect(events.filter((e) => e.event === 'card').map((e) => e.data.card?.title ?? e.data.title)).toEqual([
      'Order A777',
      'Ridge Runner Trail Shoe',
      'Wool socks',
    ]);
    expect(operator.calls).toHaveLength(1);
    expect(operator.calls[0]!.verified).toBe(true);
  });

  it('stores answers with NUL and lone surrogates (the turn and its thread are written, cleaned)', async () => {
    const turn = await send('Where is my order N10?');
    expect(turn.message.text).toBe('Order N10 is out for delivery and should arrive on today.');
    expect(turn.message.cards[1].json_data.entity).toEqual({ name: 'Cap', qty: 1 });
    const stored = await t.http.get(`/management/v1/threads/${turn.thread_id}/trace`, org.headers);
    expect(stored.status).toBe(200);
    expect(stored.body.results[0].response.message).toBe('Order N10 is out for delivery and should arrive on today.');
  });

  it('does not call the tool when its parameters are missing', async () => {
    const turn = await send('where is my order');
    expect(operator.calls).toHaveLength(0);
    expect(decision(turn, 'order_status')).toMatchObject({ status: 'skipped', fail_reason: 'parameter order_id not computed' });
  });

  it.each([
    ['a 500', 'F500', 'http_status', 500],
    ['no JSON', 'J42', 'invalid_json', 200],
    ['a redirect (never followed)', 'R42', 'http_status', 302],
  ])('answers the fallback when the operator answers %s', async (_what, order, reason, status) => {
    const turn = await send(`Where is my order ${order}?`);
    expect(turn.message.text).toBe("I can't reach the order system right now; please try again in a few minutes.");
    expect(turn.message.cards).toEqual([]);
    expect(operator.calls.map((c) => c.url)).toEqual([`/orders/${order}?source=chat`]);
    expect(decision(turn, 'order_status')).toMatchObject({
      status: 'failed',
      check_status: 'failed',
      matched_branch: 'fallback',
      qualified: false,
      fail_reason: expect.stringContaining(reason),
      http: { status, failure_reason: reason },
    });
  });

  it('answers the fallback when the operator hangs (timeout), never hanging itself', async () => {
    const turn = await send('Where is my order H900?');
    expect(turn.message.text).toBe("I can't reach the order system right now; please try again in a few minutes.");
    expect(decision(turn, 'order_status')).toMatchObject({ status: 'failed', http: { status: null, failure_reason: 'timeout' } });
  });

  it('answers a default apology when the tool has no fallback and the field it needs is missing', async () => {
    const tool = orderTool(base, { fallback_message: undefined });
    tool.response = { message: 'Your order is {status}.', fields: { status: '/order/nothing_here' } };
    const other = await liveAgent(t, org, { bundle: orderBundle(base, [tool]), runtime: 'v1' });
    const res = await t.http.post(SEND, { text: 'track my order A55', user_id: 'u1', include_trace: true }, other.headers);
    expect(res.status).toBe(200);
    expect(res.body.message.text).toBe("Sorry, I couldn't look that up right now. Please try again in a moment.");
    const d = res.body.message.trace_info.decisions.find((x: Decision) => x.tool === 'order_status');
    expect(d.http.failure_reason).toBe('missing_field');
    expect(d.fail_reason).toContain('/order/nothing_here');
  });

  describe('GET /management/v1/agents/{agentId}/tool-signing-secret', () => {
    const path = (id: string) => `/management/v1/agents/${id}/tool-signing-secret`;

    it('returns a stable whsec_ secret per agent', async () => {
      const res = await t.http.get(path(agent.agentId), org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        agent_id: agent.agentId,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        scheme: 'standard-webhooks-v1',
      });
      expect((await t.http.get(path(agent.agentId), org.headers)).body.secret).toBe(res.body.secret);
      const other = await liveAgent(t, org, { bundle: orderBundle(base), runtime: 'v1' });
      expect((await t.http.get(path(other.agentId), org.headers)).body.secret).not.toBe(res.body.secret);
    });

    it('is 401 without or with wrong credentials', async () => {
      expect((await t.http.get(path(agent.agentId))).status).toBe(401);
      const wrong = await t.http.get(path(agent.agentId), { 'x-organization-api-key': 'oak_wrong_key_0000000000000000' });
      expect(wrong.status).toBe(401);
      // A messaging credential is not accepted on management.
      expect((await t.http.get(path(agent.agentId), agent.headers)).status).toBe(401);
    });

    it("is 404 for another organization's agent and an unknown id, 422 for a malformed id", async () => {
      const stranger = await t.factory.org();
      const foreign = await t.http.get(path(agent.agentId), stranger.headers);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('not_found');
      expect((await t.http.get(path('f'.repeat(24)), org.headers)).status).toBe(404);
      const malformed = await t.http.get(path('not-an-id'), org.headers);
      expect(malformed.status).toBe(422);
      expect(malformed.body.error.details[0].field).toBe('agentId');
    });
  });

  describe('bundle validation of HTTP tools (push)', () => {
    const push = async (tool: Record<string, unknown>) => {
      const version = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.agentId}/versions`, { source: 'empty' }, org.headers),
        201,
        'create version',
      ).body;
      const bundle = { ...orderBundle(base), tools: [tool] };
      return t.http.post(`/management/v1/agents/${agent.agentId}/versions/${version.id}/push`, { bundle }, org.headers);
    };
    const fields = (res: { body: any }) => (res.body.error?.details ?? []).map((d: { field: string }) => d.field);

    it.each([
      ['the metadata address', { url: 'http://169.254.169.254/latest/meta-data/{order_id}' }, 'bundle.tools[0].url'],
      ['a decimal spelling of the metadata address', { url: 'http://2852039166/{order_id}' }, 'bundle.tools[0].url'],
      ['the metadata address behind NAT64', { url: 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/{order_id}' }, 'bundle.tools[0].url'],
      ['the metadata address behind 6to4', { url: 'http://[2002:a9fe:a9fe::1]/{order_id}' }, 'bundle.tools[0].url'],
      ['a private address', { url: 'http://10.0.0.5/orders/{order_id}' }, 'bundle.tools[0].url'],
      ['a unique-local IPv6 address', { url: 'http://[fd00:ec2::254]/{order_id}' }, 'bundle.tools[0].url'],
      ['a non-http scheme', { url: 'file:///etc/passwd' }, 'bundle.tools[0].url'],
      ['credentials in the URL', { url: 'https://user:pw@api.example.com/{order_id}' }, 'bundle.tools[0].url'],
      ['a placeholder in the host', { url: 'https://{order_id}.example.com/orders' }, 'bundle.tools[0].url'],
      ['a stray brace', { url: 'https://api.example.com/orders/{order id}' }, 'bundle.tools[0].url'],
      ['an unknown method', { method: 'TRACE' }, 'bundle.tools[0].method'],
      ['a timeout over 10 s', { timeout_ms: 60000 }, 'bundle.tools[0].timeout_ms'],
      ['a timeout under 100 ms', { timeout_ms: 5 }, 'bundle.tools[0].timeout_ms'],
      ['a reserved header', { headers: { 'Webhook-Signature': 'forged' } }, 'bundle.tools[0].headers["Webhook-Signature"]'],
      ['a header value with a line break', { headers: { 'x-api-key': 'a\r\nx-injected: 1' } }, 'bundle.tools[0].headers["x-api-key"]'],
      ['body parameters on GET', { body_params: ['order_id'] }, 'bundle.tools[0].body_params'],
      ['an undeclared intent', { intents: ['nope'] }, 'bundle.tools[0].intents[0]'],
      ['an unknown field', { retries: 3 }, 'bundle.tools[0].retries'],
    ])('refuses %s with 422 naming the field', async (_what, change, field) => {
      const res = await push({ ...orderTool(base), ...change });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(fields(res)).toContain(field);
    });

    it('refuses bad pointers and templates naming what the tool does not have', async () => {
      const bad = orderTool(base);
      bad.response = {
        message: 'Order {order_id}: {status}, {nowhere}',
        fields: { status: 'order/status' },
        items: { pointer: '/items', fields: { name: '/name~2' }, title_field: 'title' },
      };
      const res = await push(bad as unknown as Record<string, unknown>);
      expect(res.status).toBe(422);
      expect(fields(res)).toEqual(
        expect.arrayContaining(['bundle.tools[0].response.fields.status', 'bundle.tools[0].response.items.fields.name']),
      );

      const names = orderTool(base);
      names.response = {
        message: 'Order {order_id}: {status}, {nowhere}',
        fields: { status: '/order/status' },
        items: { pointer: '/items', fields: { name: '/name' }, title_field: 'title' },
      };
      const res2 = await push(names as unknown as Record<string, unknown>);
      expect(res2.status).toBe(422);
      expect(fields(res2)).toEqual(['bundle.tools[0].response.message', 'bundle.tools[0].response.items.title_field']);
    });

    it('accepts a valid HTTP tool and a hostname (checked again when resolved)', async () => {
      const res = await push(orderTool('https://orders.example.com') as unknown as Record<string, unknown>);
      expect(res.status).toBe(200);
    });
  });
});

describe('HTTP tools when loopback is not an allowed network', () => {
  let t: TestApp;
  const operator = new OperatorServer();

  beforeAll(async () => {
    await operator.start();
    // No OUTBOUND_ALLOWED_NETWORKS: the production default.
    t = await createTestApp({ OUTBOUND_ALLOWED_NETWORKS: '' });
  });
  afterAll(async () => {
    await t.close();
    await operator.stop();
  });

  it('refuses a literal loopback URL at push (422)', async () => {
    const org = await t.factory.org();
    const version = await t.factory.agent(org);
    const created = expectStatus(
      await t.http.post(`/management/v1/agents/${version.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'create version',
    ).body;
    const res = await t.http.post(
      `/management/v1/agents/${version.id}/versions/${created.id}/push`,
      { bundle: orderBundle(`http://127.0.0.1:${operator.port}`) },
      org.headers,
    );
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['bundle.tools[0].url', 'bundle.tools[1].url']);
  });

  it('refuses at call time a hostname that resolves to loopback, answering the fallback without reaching the server', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: orderBundle(`http://localhost:${operator.port}`), runtime: 'v1' });
    const res = await t.http.post(SEND, { text: 'Where is my order A123?', user_id: 'u1', include_trace: true }, agent.headers);
    expect(res.status).toBe(200);
    expect(res.body.message.text).toBe("I can't reach the order system right now; please try again in a few minutes.");
    const d = res.body.message.trace_info.decisions.find((x: Decision) => x.tool === 'order_status');
    expect(d).toMatchObject({ status: 'failed', http: { status: null, failure_reason: 'blocked_address' } });
    expect(d.fail_reason).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    expect(operator.calls).toHaveLength(0);
  });
});
