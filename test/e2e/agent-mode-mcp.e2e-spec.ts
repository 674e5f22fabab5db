import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { startAgentModel, toolResults, type AgentModelFake } from '../support/fake-agent-models.js';
import { FakeMcpServer } from '../support/fake-mcp-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/*
 * Agent mode with MCP tools (docs/agents.md, docs/mcp.md): a real MCP server built with the official SDK, its tools
 * pinned at push, called by the agent loop when the model asks, with the agent's secret in the header it verifies.
 */

const TOKEN = 'mcp-token-agent-loop-1234';

describe('agent mode with MCP tools', () => {
  let t: TestApp;
  let org: TestOrg;
  let model: AgentModelFake;
  const crm = new FakeMcpServer(TOKEN)
    .tool('lookup', 'Looks up a customer', { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, (args) => ({
      content: [{ type: 'text', text: `Customer ${String(args.id)} is gold` }],
      structuredContent: { id: args.id, tier: 'gold' },
    }))
    .tool('erase', 'Erases a customer', { type: 'object' }, () => ({ content: [{ type: 'text', text: 'erased' }] }))
    .tool('hang', 'Never answers', { type: 'object' }, () => new Promise<CallToolResult>(() => undefined));

  beforeAll(async () => {
    model = await startAgentModel('openai');
    await crm.start();
    t = await createTestApp({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key' });
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
  });
  afterAll(async () => {
    await t.close();
    await crm.stop();
    await model.close();
  });

  it('offers the allowed tools as <server>__<tool>, calls one with the secret header, refuses the others, bounds a hanging one', async () => {
    const agent = await t.factory.agent(org);
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'draft',
    ).body;
    expectStatus(
      await t.http.request('PUT', `/management/v1/agents/${agent.id}/secrets/CRM_TOKEN`, { body: { value: TOKEN }, headers: org.headers }),
      204,
      'secret',
    );
    const bundle = {
      name: 'Desk',
      model: { provider: 'openai', mode: 'agent' },
      mcp_servers: [
        {
          name: 'crm',
          url: crm.url,
          headers: { Authorization: 'Bearer {{secret:CRM_TOKEN}}' },
          allowed_tools: ['lookup', 'hang'],
          timeout_ms: 500,
        },
      ],
    };
    expectStatus(await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, org.headers), 200, 'push');
    expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org.headers),
      200,
      'publish',
    );
    const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers), 201, 'key').body;
    const token = expectStatus(
      await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.publishable_key }),
      200,
      'token',
    ).body.access_token;
    model.script([
      {
        calls: [
          { name: 'crm__lookup', arguments: { id: '42' } },
          { name: 'crm__erase', arguments: {} },
          { name: 'crm__hang', arguments: {} },
        ],
      },
      { text: 'Customer 42 is a gold customer.' },
    ]);
    const res = expectStatus(
      await t.http.post(
        '/messaging/v1/messages',
        { text: 'Who is 42?', user_id: 'u1', include_trace: true },
        { authorization: `Bearer ${token}` },
      ),
      200,
      'send',
    );
    expect(res.body.message.text).toBe('Customer 42 is a gold customer.');
    const decisions = res.body.message.trace_info.decisions;
    expect(decisions.map((d: { tool: string; status: string; parent_tool: string | null }) => [d.tool, d.status, d.parent_tool])).toEqual([
      ['crm__lookup', 'completed', 'crm'],
      ['crm__erase', 'refused', null],
      ['crm__hang', 'failed', 'crm'],
    ]);
    expect(crm.calls('lookup')).toEqual([expect.objectContaining({ authorization: `Bearer ${TOKEN}` })]);
    expect(crm.calls('erase')).toEqual([]);
    const results = toolResults(model.requests[1]!);
    expect(JSON.parse(results[0]!.content)).toEqual({ id: '42', tier: 'gold' });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    expect(model.requests[0]!.body.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ function: expect.objectContaining({ name: 'crm__lookup' }) })]),
    );
  });
});
