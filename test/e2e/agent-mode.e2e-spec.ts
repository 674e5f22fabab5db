import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Bundle, HttpTool } from '../../src/modules/bundles/bundle.types.js';
import { AGENT_FALLBACK } from '../../src/modules/runtime/agent/agent-result.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent, shopBundle } from '../support/agents.js';
import { offeredTools, startAgentModel, toolResults, type AgentModelFake } from '../support/fake-agent-models.js';
import { openSse, type SseEvent } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { connect } from '../support/ws-client.js';

/*
 * Agent mode (docs/agents.md, DESIGN.md "Agent mode: the model decides") through the real AppModule, with local fakes
 * of OpenAI and Anthropic that call tools over their real wire protocols (JSON and streamed), and an operator's
 * HTTP service that verifies each call's signature.
 */

const SEND = '/messaging/v1/messages';
const STREAM = '/messaging/v1/messages/stream';

/**
 * The operator's order service: `A…` answers at once; `P…` (a pair) answers once two `P…` calls have arrived, so the
 * pair completes only when the service sends both at once; `H…` never answers.
 */
class OrderService {
  readonly calls: Array<{ url: string; verified: boolean }> = [];
  secret = '';
  inFlight = 0;
  maxInFlight = 0;
  private readonly pair: Array<() => void> = [];
  port = 0;
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();

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
    let verified: boolean;
    try {
      new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    this.calls.push({ url: req.url ?? '', verified });
    const order = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '');
    if (order.startsWith('H')) {
      this.hanging.add(res);
      return;
    }
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const answer = () => {
      this.inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ order: { id: order, status: 'shipped', eta: '2026-12-01' } }));
    };
    if (!order.startsWith('P')) return answer();
    this.pair.push(answer);
    if (this.pair.length === 2) for (const waiting of this.pair.splice(0)) waiting();
  }
}

function orderTool(base: string, overrides: Partial<HttpTool> = {}): HttpTool {
  return {
    code: 'order_status',
    type: 'http',
    method: 'GET',
    url: `${base}/orders/{order_id}`,
    timeout_ms: 1000,
    description: 'Looks up an order by its number',
    response: { message: 'Order {order_id} is {status}, arriving {eta}.', fields: { status: '/order/status', eta: '/order/eta' } },
    ...overrides,
  };
}

const agentModel = (provider: 'openai' | 'anthropic', extra: Partial<NonNullable<Bundle['model']>> = {}): Bundle['model'] => ({
  provider,
  name: 'fake-model',
  mode: 'agent',
  ...extra,
});

const stepsOf = (events: SseEvent[]) => events.filter((e) => e.event === 'step').map((e) => e.data.step);

describe('agent mode', () => {
  let t: TestApp;
  let org: TestOrg;
  let openai: AgentModelFake;
  let anthropic: AgentModelFake;
  const orders = new OrderService();
  let base: string;

  beforeAll(async () => {
    openai = await startAgentModel('openai');
    anthropic = await startAgentModel('anthropic');
    await orders.start();
    base = `http://127.0.0.1:${orders.port}`;
    t = await createTestApp({
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: 'test-key',
      PROVIDER_TIMEOUT_MS: '5000',
    });
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    orders.calls.length = 0;
    orders.maxInFlight = 0;
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
    await anthropic.close();
    await orders.stop();
  });

  const push = async (bundle: Bundle, runtime: 'v1' | 'v2' = 'v1') => {
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Agent mode' }, org.headers), 201, 'project').body;
    const agent = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Agent', runtime }, org.headers),
      201,
      'agent',
    ).body;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'version',
    ).body;
    return t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, org.headers);
  };

  describe('bundle', () => {
    it('refuses agent mode without a model provider, steps out of range, and tool names the providers refuse (422 naming the field)', async () => {
      const builtin = await push({ ...shopBundle, model: { provider: 'builtin', mode: 'agent' } });
      expect(builtin.status).toBe(422);
      expect(builtin.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'bundle.model.provider' })]));

      const steps = await push({ ...shopBundle, model: agentModel('openai', { max_steps: 21 }) });
      expect(steps.status).toBe(422);
      expect(steps.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'bundle.model.max_steps' })]));

      const dotted = await push({
        ...shopBundle,
        model: agentModel('openai'),
        tools: [{ ...shopBundle.tools![0]!, code: 'shop.catalog' }],
      });
      expect(dotted.status).toBe(422);
      expect(dotted.body.error.details).toEqual([expect.objectContaining({ field: 'bundle.tools[0].code' })]);

      const reserved = await push({
        ...shopBundle,
        model: agentModel('openai'),
        tools: [{ ...shopBundle.tools![0]!, code: 'search_knowledge' }],
      });
      expect(reserved.status).toBe(422);

      const schema = await push({
        ...shopBundle,
        model: agentModel('openai'),
        tools: [orderTool(base, { input_schema: { type: 'object', properties: { order: { type: 'string' } } } })],
      });
      expect(schema.status).toBe(422);
      expect(schema.body.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['bundle.tools[0].input_schema.properties', 'bundle.tools[0].input_schema.properties.order']),
      );

      // Compose stays the default and needs nothing new; agent mode with openai is accepted.
      expect((await push({ ...shopBundle, model: agentModel('openai', { max_steps: 3, max_turn_tokens: 5000 }) })).status).toBe(200);
    });
  });

  describe('v2 with search_knowledge (OpenAI, JSON)', () => {
    it('keeps [1], which names a passage the search returned, removes [7], and lists it in the checks; usage is the fake’s sum', async () => {
      const agent = await liveAgent(t, org, { bundle: { ...helpBundle, model: agentModel('openai') }, runtime: 'v2' });
      openai.script([
        { calls: [{ name: 'search_knowledge', arguments: { query: 'return policy refund' } }] },
        (request) => {
          const passages = JSON.parse(toolResults(request)[0]!.content).passages as Array<{ n: number; title: string }>;
          const returns = passages.find((p) => p.title === 'Returns policy')!;
          return { text: `You can return unworn items within 30 days [${returns.n}]. See also [7].` };
        },
      ]);
      const res = expectStatus(
        await t.http.post(SEND, { text: 'How do returns work?', user_id: 'u1', include_trace: true }, agent.headers),
        200,
        'send',
      );
      const { message } = res.body;
      expect(message.text).toMatch(/within 30 days \[\d\]\./);
      expect(message.text).not.toContain('[7]');
      const trace = message.trace_info;
      expect(trace.steps).toEqual([
        expect.objectContaining({ id: 's1', tool: 'search_knowledge', parent_tool: null, status: 'completed', model_call: 1 }),
      ]);
      expect(JSON.parse(trace.steps[0].arguments)).toEqual({ query: 'return policy refund' });
      expect(trace.citations_used).toEqual([expect.objectContaining({ document_id: 'returns', title: 'Returns policy' })]);
      expect(trace.checks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'citations_map_to_passages', passed: false, detail: expect.stringContaining('[7]') }),
        ]),
      );
      expect(trace.agent).toMatchObject({ provider: 'openai', model_calls: 2, stop_reason: 'answered' });
      // Usage sums both model calls exactly as the fake reported them.
      expect(message.input_tokens).toBe(openai.reported.input);
      expect(message.output_tokens).toBe(openai.reported.output);
      // The model saw the tool as a function and read its result.
      expect(offeredTools(openai.requests[0]!)).toEqual(['search_knowledge']);
      expect(toolResults(openai.requests[1]!)).toHaveLength(1);
      // The facets record the tool that ran.
      const threads = expectStatus(
        await t.http.get(`/management/v1/threads?tool=search_knowledge&runtime_version=2&agent_id=${agent.agentId}`, org.headers),
        200,
        'threads',
      ).body;
      expect(threads.results.map((r: { id: string }) => r.id)).toEqual([res.body.thread_id]);
    });

    it('answers the fallback with the reason in the trace when max_steps run out', async () => {
      const agent = await liveAgent(t, org, { bundle: { ...helpBundle, model: agentModel('openai', { max_steps: 2 }) }, runtime: 'v2' });
      // A model that keeps searching (each time for something else, so no call repeats).
      openai.script(
        Array.from({ length: 3 }, (_, i) => ({ calls: [{ name: 'search_knowledge', arguments: { query: `shipping option ${i}` } }] })),
      );
      const res = expectStatus(
        await t.http.post(SEND, { text: 'Shipping?', user_id: 'u1', include_trace: true }, agent.headers),
        200,
        'send',
      );
      expect(res.body.message.text).toBe(AGENT_FALLBACK);
      expect(res.body.message.trace_info.agent).toMatchObject({ stop_reason: 'max_steps', model_calls: 2, max_steps: 2 });
      expect(res.body.message.trace_info.steps).toHaveLength(1);
      expect(openai.requests).toHaveLength(2);
    });
  });

  describe('v1 catalog search with rules (Anthropic, streamed over SSE)', () => {
    it('refuses a search a block rule stops, tells the model why, then answers from a valid one with cards from its results', async () => {
      const agent = await liveAgent(t, org, { bundle: { ...shopBundle, model: agentModel('anthropic') }, runtime: 'v1' });
      anthropic.script([
        { text: 'Let me look.', calls: [{ name: 'catalog', arguments: { query: 'trail shoes', budget: 20 } }] },
        { calls: [{ name: 'catalog', arguments: { query: 'trail shoes', budget: 150 } }] },
        { text: 'The Ridge Runner Trail Shoe at $89 is a great trail pick.' },
      ]);
      const stream = await openSse(t.baseUrl, STREAM, {
        headers: agent.headers,
        body: { text: 'trail shoes please', user_id: 'u1', include_trace: true },
      });
      expect(stream.status).toBe(200);
      const events = await stream.collect((e) => e.event === 'done');
      const names = events.map((e) => e.event);
      // Steps come before the first delta; the deltas make the message.
      expect(names.lastIndexOf('step')).toBeLessThan(names.indexOf('delta'));
      expect(stepsOf(events)).toEqual([
        { id: 's1', tool: 'catalog', status: 'started' },
        expect.objectContaining({ id: 's1', tool: 'catalog', status: 'refused', duration_ms: expect.any(Number) }),
        { id: 's2', tool: 'catalog', status: 'started' },
        expect.objectContaining({ id: 's2', tool: 'catalog', status: 'completed' }),
      ]);
      const step = events.find((e) => e.event === 'step')!;
      const message = events.find((e) => e.event === 'message')!.data;
      expect(step.data).toMatchObject({ thread_id: message.thread_id, interaction_id: message.interaction_id });
      expect(
        events
          .filter((e) => e.event === 'delta')
          .map((e) => e.data.text)
          .join(''),
      ).toBe(message.message.text);
      expect(message.message.cards.map((c: { instance: string }) => c.instance)).toEqual(['sku-trail-1']);
      // The model was told why: the rule's message came back as an error result.
      const refused = toolResults(anthropic.requests[1]!)[0]!;
      expect(refused).toMatchObject({ isError: true });
      expect(refused.content).toContain('over_budget');
      const trace = message.message.trace_info;
      expect(trace.decisions).toEqual([
        expect.objectContaining({
          type: 'tool_call',
          tool: 'catalog',
          track_id: 's1',
          status: 'refused',
          parent_tool: null,
          rule: expect.objectContaining({ code: 'over_budget', action: 'block' }),
        }),
        expect.objectContaining({
          type: 'tool_call',
          tool: 'catalog',
          track_id: 's2',
          status: 'completed',
          output_title: 'Ridge Runner Trail Shoe',
        }),
      ]);
      expect(JSON.parse(trace.decisions[0].text)).toEqual({ query: 'trail shoes', budget: 20 });
      expect(trace.agent).toMatchObject({ provider: 'anthropic', model_calls: 3, stop_reason: 'answered' });
      expect(message.message.input_tokens).toBe(anthropic.reported.input);
      expect(message.message.output_tokens).toBe(anthropic.reported.output);
      const blocked = expectStatus(await t.http.get('/management/v1/threads?rule=over_budget:blocked', org.headers), 200, 'threads').body;
      expect(blocked.results).toHaveLength(1);
    });
  });

  describe('http tools (OpenAI, streamed)', () => {
    const withOrders = async (tools: HttpTool[]) => {
      const agent = await liveAgent(t, org, { bundle: { name: 'Orders', model: agentModel('openai'), tools }, runtime: 'v1' });
      orders.secret = expectStatus(
        await t.http.get(`/management/v1/agents/${agent.agentId}/tool-signing-secret`, org.headers),
        200,
        'secret',
      ).body.secret;
      return agent;
    };

    it('runs two calls the model asks for at once, signed as in compose mode, with step events over SSE', async () => {
      const agent = await withOrders([orderTool(base)]);
      openai.script([
        {
          calls: [
            { name: 'order_status', arguments: { order_id: 'P100' } },
            { name: 'order_status', arguments: { order_id: 'P200' } },
          ],
        },
        { text: 'Both orders have shipped.' },
      ]);
      const stream = await openSse(t.baseUrl, STREAM, {
        headers: agent.headers,
        body: { text: 'Where are P100 and P200?', user_id: 'u1' },
      });
      const events = await stream.collect((e) => e.event === 'done');
      expect(events.at(-2)?.event).toBe('suggestions');
      expect(stepsOf(events).filter((s) => s.status !== 'started')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: 's1', status: 'completed' }),
          expect.objectContaining({ id: 's2', status: 'completed' }),
        ]),
      );
      expect(orders.calls.map((c) => c.url).sort()).toEqual(['/orders/P100', '/orders/P200']);
      expect(orders.calls.every((c) => c.verified)).toBe(true);
      expect(orders.maxInFlight).toBe(2);
      const results = toolResults(openai.requests[1]!);
      expect(results.map((r) => JSON.parse(r.content).message)).toEqual([
        'Order P100 is shipped, arriving 2026-12-01.',
        'Order P200 is shipped, arriving 2026-12-01.',
      ]);
    });

    it('bounds a hanging tool by its deadline and hands the model the failure as a result', async () => {
      const agent = await withOrders([orderTool(base, { timeout_ms: 300 })]);
      openai.script([
        { calls: [{ name: 'order_status', arguments: { order_id: 'H1' } }] },
        { text: 'The order system is not answering right now.' },
      ]);
      const res = expectStatus(
        await t.http.post(SEND, { text: 'Where is H1?', user_id: 'u1', include_trace: true }, agent.headers),
        200,
        'send',
      );
      expect(res.body.message.text).toBe('The order system is not answering right now.');
      expect(res.body.message.trace_info.decisions[0]).toMatchObject({ status: 'failed', fail_reason: expect.stringMatching(/timeout/) });
      expect(toolResults(openai.requests[1]!)[0]!.isError).toBe(true);
    });

    it('answers an unknown tool, malformed arguments and a repeated call with clear tool errors, not a failed turn', async () => {
      const agent = await withOrders([orderTool(base)]);
      openai.script([
        {
          calls: [
            { name: 'delete_everything', arguments: {} },
            { name: 'order_status', arguments: '{"order_id": ' },
            { name: 'order_status', arguments: { order_id: 42 } },
          ],
        },
        { calls: [{ name: 'order_status', arguments: { order_id: 'A1' } }] },
        { calls: [{ name: 'order_status', arguments: { order_id: 'A1' } }] },
        { text: 'Order A1 has shipped.' },
      ]);
      const res = expectStatus(
        await t.http.post(SEND, { text: 'Where is A1?', user_id: 'u1', include_trace: true }, agent.headers),
        200,
        'send',
      );
      expect(res.body.message.text).toBe('Order A1 has shipped.');
      const decisions = res.body.message.trace_info.decisions as Array<{ status: string; fail_reason: string }>;
      expect(decisions.map((d) => d.status)).toEqual(['refused', 'refused', 'refused', 'completed', 'refused']);
      expect(decisions[0]!.fail_reason).toMatch(/unknown tool "delete_everything"; the tools are order_status/);
      expect(decisions[1]!.fail_reason).toMatch(/not valid JSON/);
      expect(decisions[2]!.fail_reason).toMatch(/"order_id" must be a string/);
      expect(decisions[4]!.fail_reason).toMatch(/same call/);
      expect(orders.calls).toHaveLength(1);
    });
  });

  describe('the same turn on every surface', () => {
    it('sends step frames over the WebSocket session', async () => {
      const agent = await liveAgent(t, org, { bundle: { ...helpBundle, model: agentModel('openai') }, runtime: 'v2' });
      openai.script([
        { calls: [{ name: 'search_knowledge', arguments: { query: 'shipping times' } }] },
        { text: 'Standard shipping takes 3 to 5 business days [1].' },
      ]);
      const c = connect(`${t.baseUrl.replace('http', 'ws')}/messaging/v1/session`, { headers: agent.headers });
      await c.next((f) => f.type === 'ready');
      c.send({ type: 'message', id: 'r1', text: 'How long is shipping?', user_id: 'u1', include_trace: true });
      const frames = await c.request('r1');
      c.socket.close();
      expect(frames.filter((f) => f.type === 'step').map((f) => `${f.step.id}:${f.step.status}`)).toEqual(['s1:started', 's1:completed']);
      const message = frames.find((f) => f.type === 'message');
      expect(message.message.text).toBe('Standard shipping takes 3 to 5 business days [1].');
      expect(message.message.trace_info.steps).toHaveLength(1);
    });

    it('runs the loop for an events-webhook event and records the steps in the trace', async () => {
      const agent = await liveAgent(t, org, { bundle: { ...shopBundle, model: agentModel('openai') }, runtime: 'v1' });
      const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers), 201, 'api key').body;
      openai.script([
        { calls: [{ name: 'catalog', arguments: { query: 'rain jacket' } }] },
        { text: 'The Storm Shell Jacket keeps you dry.' },
      ]);
      const accepted = expectStatus(
        await t.http.post('/messaging/v1/events', { text: 'a rain jacket?', thread_id: 'ext-1' }, { 'x-agent-api-key': key.api_key }),
        202,
        'event',
      ).body;
      const done = await waitFor(async () => {
        const res = await t.http.get(`/messaging/v1/events/${accepted.event_id}`, { 'x-agent-api-key': key.api_key });
        return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : undefined;
      }, 'the event to settle');
      expect(done.status).toBe('completed');
      const [turn] = await t.dataSource.query(`SELECT id FROM interactions WHERE event_id = $1`, [accepted.event_id]);
      const trace = expectStatus(await t.http.get(`/management/v1/interactions/${turn.id}/trace`, org.headers), 200, 'trace').body;
      expect(trace.decisions).toEqual([
        expect.objectContaining({ type: 'tool_call', tool: 'catalog', status: 'completed', output_title: 'Storm Shell Jacket' }),
      ]);
      expect(trace.response.jsx_widgets.map((w: { name: string }) => w.name)).toEqual(['Storm Shell Jacket']);
    });
  });
});
