import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Bundle, McpServer } from '../../src/modules/bundles/bundle.types.js';
import { EncryptionKeys } from '../../src/common/crypto/encryption-keys.js';
import { loadConfig } from '../../src/config/app-config.js';
import { AgentSecretsRepository } from '../../src/modules/agent-secrets/agent-secrets.repository.js';
import { AgentSecretsStore } from '../../src/modules/agent-secrets/agent-secrets.store.js';
import { McpService } from '../../src/modules/runtime/mcp/mcp.service.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { FakeMcpServer } from '../support/fake-mcp-server.js';
import { startServiceProcess } from '../support/service-process.js';
import { waitFor } from '../support/wait.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const TOKEN = 'mcp-token-7f3a9c1e5b2d4f60';

function orderServer(token = TOKEN): FakeMcpServer {
  return new FakeMcpServer(token)
    .tool(
      'lookup_order',
      'Looks up an order by its number',
      { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      (args, req) => ({
        content: [{ type: 'text', text: `Order ${String(args.order_id)} shipped (auth: ${req.headers.authorization})` }],
        structuredContent: { order_id: args.order_id, status: 'shipped' },
      }),
    )
    .tool('delete_everything', 'Deletes every order', { type: 'object' }, () => ({ content: [{ type: 'text', text: 'deleted' }] }))
    .tool('wait_forever', 'Never answers', { type: 'object' }, () => new Promise<CallToolResult>(() => undefined))
    .tool('explode', 'Fails', { type: 'object' }, () => ({ content: [{ type: 'text', text: 'the order system is down' }], isError: true }));
}

const mcpServer = (url: string, overrides: Partial<McpServer> = {}): McpServer => ({
  name: 'orders',
  url,
  headers: { Authorization: 'Bearer {{secret:ORDERS_TOKEN}}' },
  allowed_tools: ['lookup_order', 'wait_forever', 'explode'],
  timeout_ms: 1000,
  ...overrides,
});

describe('agent secrets, the MCP client and POST /mcp', () => {
  let t: TestApp;
  let org: TestOrg;
  const operator = orderServer();

  beforeAll(async () => {
    await operator.start();
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    operator.seen.length = 0;
    org = await t.factory.org();
  });
  afterAll(async () => {
    await t.close();
    await operator.stop();
  });

  const secrets = (agentId: string) => `/management/v1/agents/${agentId}/secrets`;
  const putSecret = (agentId: string, name: string, value: unknown, headers = org.headers) =>
    t.http.request('PUT', `${secrets(agentId)}/${name}`, { body: { value }, headers });

  /** Publishes the version and returns messaging headers (a publishable key's token) for the agent. */
  async function messagingHeaders(agentId: string, versionId: string): Promise<Record<string, string>> {
    expectStatus(
      await t.http.post(`/management/v1/agents/${agentId}/versions/${versionId}/publish`, undefined, org.headers),
      200,
      'publish',
    );
    const key = expectStatus(await t.http.post(`/management/v1/agents/${agentId}/publishable-keys`, {}, org.headers), 201, 'key').body;
    const token = expectStatus(
      await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.publishable_key }),
      200,
      'token',
    ).body.access_token as string;
    return { authorization: `Bearer ${token}` };
  }

  /** An agent without a live version, its first draft, and a secret holding the MCP server's token. */
  async function draftAgent(secret: string | null = TOKEN) {
    const agent = await t.factory.agent(org);
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'draft',
    ).body;
    if (secret !== null) expectStatus(await putSecret(agent.id, 'ORDERS_TOKEN', secret), 204, 'secret');
    const push = (bundle: Bundle) => t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, org.headers);
    return { agentId: agent.id, versionId: version.id, push };
  }

  const bundleWith = (servers: McpServer[], extra: Partial<Bundle> = {}): Bundle => ({
    name: 'Order desk',
    mcp_servers: servers,
    ...extra,
  });

  describe('agent secrets', () => {
    it('sets, lists (names only), replaces and deletes a secret; the value is never shown and is sealed at rest', async () => {
      const agent = await t.factory.agent(org);
      const value = 'sk_live_s3cr3t_value_0042';
      expect((await putSecret(agent.id, 'CRM_TOKEN', value)).status).toBe(204);
      expect((await putSecret(agent.id, 'OTHER', 'x'.repeat(4096))).status).toBe(204);
      const listed = expectStatus(await t.http.get(secrets(agent.id), org.headers), 200, 'list');
      expect(listed.body.results.map((s: { name: string }) => s.name)).toEqual(['CRM_TOKEN', 'OTHER']);
      expect(Object.keys(listed.body.results[0]).sort()).toEqual(['created_at', 'name', 'updated_at']);
      const first = listed.body.results[0];

      expect((await putSecret(agent.id, 'CRM_TOKEN', 'sk_live_rotated_0043')).status).toBe(204);
      const after = expectStatus(await t.http.get(`${secrets(agent.id)}?sort_by=updated_at&sort_order=desc`, org.headers), 200, 'list');
      expect(after.body.results[0]).toMatchObject({ name: 'CRM_TOKEN', created_at: first.created_at });
      expect(after.body.results[0].updated_at >= first.updated_at).toBe(true);

      const [row] = await t.dataSource.query(`SELECT * FROM agent_secrets WHERE agent_id = $1 AND name = 'CRM_TOKEN'`, [agent.id]);
      expect(row.key_id).toBe('jwt');
      expect(Buffer.from(row.value_sealed).includes(Buffer.from('sk_live_rotated_0043'))).toBe(false);
      expect(JSON.stringify(row)).not.toContain('sk_live');

      expect((await t.http.delete(`${secrets(agent.id)}/CRM_TOKEN`, org.headers)).status).toBe(204);
      expect((await t.http.delete(`${secrets(agent.id)}/CRM_TOKEN`, org.headers)).body.error.code).toBe('not_found');
      expect((await t.http.get(secrets(agent.id), org.headers)).body.results.map((s: { name: string }) => s.name)).toEqual(['OTHER']);

      // Audited by name, never by value.
      const audit = await t.dataSource.query(
        `SELECT action, resource_type, resource_id, before, after FROM audit_events WHERE organization_id = $1 AND resource_type = 'agent_secret' ORDER BY created_at, id`,
        [org.id],
      );
      expect(audit.map((a: { action: string }) => a.action)).toEqual([
        'agent_secret.put',
        'agent_secret.put',
        'agent_secret.put',
        'agent_secret.delete',
      ]);
      expect(audit[0]).toMatchObject({
        resource_id: `${agent.id}:CRM_TOKEN`,
        after: { agent_id: agent.id, name: 'CRM_TOKEN', created: true },
      });
      expect(audit[2].after).toMatchObject({ created: false });
      expect(JSON.stringify(audit)).not.toContain('sk_live');
    });

    it('rotates keys: secrets:rewrap re-seals the stored values with the new key, and the old key can go', async () => {
      const agent = await t.factory.agent(org);
      const [k1, k2] = ['k1', 'k2'].map((id) => `${id}:${randomBytes(32).toString('base64')}`) as [string, string];
      // The service's store under other ENCRYPTION_KEYS (the JWT_SECRET-derived key opens too, but sealed nothing here).
      const storeWith = (keys: string) =>
        new AgentSecretsStore(new EncryptionKeys(loadConfig({ ENCRYPTION_KEYS: keys })), t.app.get(AgentSecretsRepository));
      await t.app.get(AgentSecretsRepository).upsert({
        id: agent.id,
        organizationId: org.id,
        agentId: agent.id,
        name: 'ROTATED',
        sealed: storeWith(k1).seal(agent.id, 'ROTATED', TOKEN),
      });
      expect(await storeWith(k2).fillHeaders(agent.id, { a: '{{secret:ROTATED}}' })).toMatchObject({ ok: false });
      expect(await storeWith(`${k2},${k1}`).rewrapAll()).toEqual({ rewrapped: 1, unreadable: 0 });
      const [row] = await t.dataSource.query(`SELECT key_id FROM agent_secrets WHERE agent_id = $1`, [agent.id]);
      expect(row.key_id).toBe('k2');
      expect(await storeWith(k2).fillHeaders(agent.id, { a: 'Bearer {{secret:ROTATED}}' })).toEqual({
        ok: true,
        headers: { a: `Bearer ${TOKEN}` },
        secrets: [TOKEN],
      });
    });

    it('refuses missing credentials (401), another organization (404), bad names and values (422 naming the field)', async () => {
      const agent = await t.factory.agent(org);
      expect((await putSecret(agent.id, 'A', 'v', {})).status).toBe(401);
      expect((await t.http.get(secrets(agent.id))).status).toBe(401);
      const other = await t.factory.org();
      expectStatus(await putSecret(agent.id, 'A', 'v'), 204, 'own secret');
      for (const res of [
        await putSecret(agent.id, 'A', 'stolen', other.headers),
        await t.http.get(secrets(agent.id), other.headers),
        await t.http.delete(`${secrets(agent.id)}/A`, other.headers),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      // (`%2E%2E` is not sent as such: URL parsers resolve it as a dot segment before it leaves the client.)
      for (const name of ['1ABC', 'a.b', '..%2F..%2Fetc', 'A%2FB', 'A%00B', 'A-B', `A${'b'.repeat(64)}`, 'A%20B', '%C3%A9']) {
        const res = await putSecret(agent.id, name, 'v');
        expect([res.status, res.body.error.details?.[0]?.field]).toEqual([422, 'name']);
      }
      for (const [value, why] of [
        ['', 'empty'],
        ['x'.repeat(4097), 'too long'],
        ['line\r\nX-Injected: 1', 'control characters'],
        [42, 'not a string'],
      ] as const) {
        const res = await putSecret(agent.id, 'B', value);
        expect([why, res.status, res.body.error.details?.[0]?.field]).toEqual([why, 422, 'value']);
      }
      const extra = await t.http.request('PUT', `${secrets(agent.id)}/B`, { body: { value: 'v', name: 'C' }, headers: org.headers });
      expect(extra.status).toBe(422);
      // The other organization's attempt changed nothing.
      const rows = await t.dataSource.query(`SELECT name FROM agent_secrets WHERE agent_id = $1`, [agent.id]);
      expect(rows.map((r: { name: string }) => r.name)).toEqual(['A']);
    });

    it('fills {{secret:NAME}} in HTTP tool headers at call time and refuses a push naming an unknown secret', async () => {
      const seen: Array<string | undefined> = [];
      const receiver = createServer((req, res) => {
        seen.push(req.headers['x-api-key'] as string | undefined);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'shipped' }));
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const agent = await draftAgent();
        const tool = {
          code: 'order_status',
          type: 'http' as const,
          method: 'GET' as const,
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`,
          headers: { 'x-api-key': '{{secret:ORDERS_TOKEN}}', 'x-other': 'k-{{secret:MISSING_ONE}}' },
          response: { message: 'Your order is {status}.', fields: { status: '/status' } },
        };
        const refused = await agent.push({ name: 'Orders', tools: [tool] });
        expect(refused.status).toBe(422);
        expect(refused.body.error.details).toEqual([
          { field: 'bundle.tools[0].headers["x-other"]', message: expect.stringContaining('MISSING_ONE') },
        ]);
        const malformed = await agent.push({ name: 'Orders', tools: [{ ...tool, headers: { 'x-api-key': '{{secret:bad name}}' } }] });
        expect(malformed.body.error.details).toEqual([
          { field: 'bundle.tools[0].headers["x-api-key"]', message: expect.stringContaining('malformed') },
        ]);
        const bundle = { name: 'Orders', tools: [{ ...tool, headers: { 'x-api-key': '{{secret:ORDERS_TOKEN}}' } }] };
        expectStatus(await agent.push(bundle), 200, 'push');
        // The pull shows the reference, never the value.
        const pulled = await t.http.get(`/management/v1/agents/${agent.agentId}/versions/${agent.versionId}/pull`, org.headers);
        expect(pulled.body.bundle.tools[0].headers['x-api-key']).toBe('{{secret:ORDERS_TOKEN}}');
        expect(pulled.text).not.toContain(TOKEN);

        const headers = await messagingHeaders(agent.agentId, agent.versionId);
        const turn = expectStatus(
          await t.http.post('/messaging/v1/messages', { text: 'where is my order', user_id: 'u1', include_trace: true }, headers),
          200,
          'send',
        );
        expect(turn.body.message.text).toBe('Your order is shipped.');
        expect(seen).toEqual([TOKEN]);
        expect(turn.text).not.toContain(TOKEN);

        // Deleted after the push: the call is not made, and the trace says why without any value.
        expectStatus(await t.http.delete(`${secrets(agent.agentId)}/ORDERS_TOKEN`, org.headers), 204, 'delete secret');
        const after = expectStatus(
          await t.http.post('/messaging/v1/messages', { text: 'where is my order', user_id: 'u1', include_trace: true }, headers),
          200,
          'send',
        );
        expect(seen).toHaveLength(1);
        const call = after.body.message.trace_info.decisions.find((d: { tool: string }) => d.tool === 'order_status').http;
        expect(call).toMatchObject({ failure_reason: 'unavailable', detail: expect.stringContaining('no secret ORDERS_TOKEN') });
      } finally {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
      }
    });
  });

  describe('MCP servers in bundles', () => {
    it('pins the allowed tools at push and calls an allowed tool with the secret header the server verifies', async () => {
      const agent = await draftAgent();
      const pushed = expectStatus(await agent.push(bundleWith([mcpServer(operator.url)])), 200, 'push').body;
      const [pin] = await t.dataSource.query(`SELECT tools FROM mcp_tool_pins WHERE revision_id = $1`, [pushed.revision_id]);
      expect(pin.tools.map((p: { tool: string }) => p.tool)).toEqual(['lookup_order', 'wait_forever', 'explode']);
      expect(pin.tools[0]).toEqual({
        server: 'orders',
        tool: 'lookup_order',
        description: 'Looks up an order by its number',
        input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      });
      expect(operator.seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);

      const toolbox = await t.app.get(McpService).toolbox({
        agentId: agent.agentId,
        revisionId: pushed.revision_id,
        bundle: bundleWith([mcpServer(operator.url)]),
      });
      expect(toolbox.tools.map((d) => d.name)).toEqual(['orders__lookup_order', 'orders__wait_forever', 'orders__explode']);
      expect(toolbox.find('orders__lookup_order')).toMatchObject({ server: 'orders', tool: 'lookup_order' });

      const result = await toolbox.callTool('orders', 'lookup_order', { order_id: 'A123' });
      expect(result).toMatchObject({ status: 'completed', structuredContent: { order_id: 'A123', status: 'shipped' }, truncated: false });
      // The server echoed its Authorization header: the secret is redacted before the model or a trace could read it.
      expect(result.text).toBe('Order A123 shipped (auth: Bearer [secret])');
      expect(operator.calls('lookup_order')).toEqual([expect.objectContaining({ authorization: `Bearer ${TOKEN}` })]);

      const failed = await toolbox.callTool('orders', 'explode', {});
      expect(failed).toMatchObject({ status: 'failed', reason: 'tool_error', text: 'the order system is down' });
    });

    it('refuses a tool outside allowed_tools without calling the server, and arguments that are not an object', async () => {
      const agent = await draftAgent();
      const pushed = expectStatus(await agent.push(bundleWith([mcpServer(operator.url)])), 200, 'push').body;
      const toolbox = await t.app.get(McpService).toolbox({
        agentId: agent.agentId,
        revisionId: pushed.revision_id,
        bundle: bundleWith([mcpServer(operator.url)]),
      });
      expect(toolbox.find('orders__delete_everything')).toBeUndefined();
      const refused = await toolbox.callTool('orders', 'delete_everything', {});
      expect(refused).toMatchObject({ status: 'failed', reason: 'not_allowed' });
      expect(await toolbox.callTool('billing', 'lookup_order', {})).toMatchObject({ status: 'failed', reason: 'not_allowed' });
      expect(await toolbox.callTool('orders', 'lookup_order', ['A1'])).toMatchObject({ status: 'failed', reason: 'invalid_arguments' });
      expect(await toolbox.callTool('orders', 'lookup_order', { order_id: 'x'.repeat(70_000) })).toMatchObject({
        status: 'failed',
        reason: 'invalid_arguments',
      });
      expect(operator.calls('delete_everything')).toEqual([]);
      expect(operator.seen.filter((s) => s.rpc === 'tools/call')).toEqual([]);
    });

    it('bounds a hanging server by its timeout_ms and by the caller deadline and signal', async () => {
      const agent = await draftAgent();
      const servers = [mcpServer(operator.url, { timeout_ms: 1500 })];
      const pushed = expectStatus(await agent.push(bundleWith(servers)), 200, 'push').body;
      const toolbox = await t.app
        .get(McpService)
        .toolbox({ agentId: agent.agentId, revisionId: pushed.revision_id, bundle: bundleWith(servers) });
      const calls = () => operator.calls('wait_forever').length;
      expect(await toolbox.callTool('orders', 'wait_forever', {})).toMatchObject({ status: 'failed', reason: 'timeout' });
      expect(calls()).toBe(1);
      const early = await toolbox.callTool('orders', 'wait_forever', {}, { deadline: Date.now() + 400 });
      expect(early).toMatchObject({ status: 'failed', reason: 'timeout' });
      // The turn's signal, once the server holds the call.
      const controller = new AbortController();
      void waitFor(() => calls() === 3, 'the third call at the server').then(() => controller.abort());
      expect(await toolbox.callTool('orders', 'wait_forever', {}, { signal: controller.signal })).toMatchObject({
        status: 'failed',
        reason: 'aborted',
      });
    });

    it('keeps the pinned definitions until the next push, whatever the server says meanwhile', async () => {
      const server = orderServer();
      await server.start();
      try {
        const agent = await draftAgent();
        const first = expectStatus(await agent.push(bundleWith([mcpServer(server.url)])), 200, 'push').body;
        server.tools.get('lookup_order')!.definition.description = 'Looks up an order, now with refunds';
        server.tools.get('lookup_order')!.definition.inputSchema = { type: 'object', properties: { order: { type: 'number' } } };
        const mcp = t.app.get(McpService);
        const pinned = await mcp.toolbox({
          agentId: agent.agentId,
          revisionId: first.revision_id,
          bundle: bundleWith([mcpServer(server.url)]),
        });
        expect(pinned.find('orders__lookup_order')).toMatchObject({
          description: 'Looks up an order by its number',
          inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        });
        // Publishing and renaming keep the pins (the rename copies them into its revision).
        expectStatus(
          await t.http.post(`/management/v1/agents/${agent.agentId}/versions/${agent.versionId}/publish`, undefined, org.headers),
          200,
          'publish',
        );
        expectStatus(await t.http.patch(`/management/v1/agents/${agent.agentId}`, { name: 'Renamed desk' }, org.headers), 200, 'rename');
        const [renamed] = await t.dataSource.query(`SELECT live_revision_id FROM agents WHERE id = $1`, [agent.agentId]);
        expect(renamed.live_revision_id).not.toBe(first.revision_id);
        const [copied] = await t.dataSource.query(`SELECT tools FROM mcp_tool_pins WHERE revision_id = $1`, [renamed.live_revision_id]);
        expect(copied.tools[0].description).toBe('Looks up an order by its number');

        // The next push (a changed bundle) lists the server again.
        const second = expectStatus(await agent.push(bundleWith([mcpServer(server.url)], { persona: 'Brief.' })), 200, 'push').body;
        const repinned = await mcp.toolbox({
          agentId: agent.agentId,
          revisionId: second.revision_id,
          bundle: bundleWith([mcpServer(server.url)]),
        });
        expect(repinned.find('orders__lookup_order')).toMatchObject({
          description: 'Looks up an order, now with refunds',
          inputSchema: { type: 'object', properties: { order: { type: 'number' } } },
        });
      } finally {
        await server.stop();
      }
    });

    it('refuses a push whose server is unreachable, refuses the token, or lacks an allowed tool (422 naming the field)', async () => {
      const agent = await draftAgent();
      const missing = await agent.push(bundleWith([mcpServer(operator.url, { allowed_tools: ['lookup_order', 'refund_order'] })]));
      expect(missing.status).toBe(422);
      expect(missing.body.error.details).toEqual([
        { field: 'bundle.mcp_servers[0].allowed_tools[1]', message: expect.stringContaining('names no tool of the server') },
      ]);
      const closed = await agent.push(bundleWith([mcpServer('http://127.0.0.1:9/mcp')]));
      expect(closed.body.error.details).toEqual([
        { field: 'bundle.mcp_servers[0].url', message: expect.stringContaining('could not list') },
      ]);

      const wrongToken = await draftAgent('not-the-token');
      const refused = await wrongToken.push(bundleWith([mcpServer(operator.url)]));
      expect(refused.body.error.details).toEqual([{ field: 'bundle.mcp_servers[0].url', message: expect.stringContaining('401') }]);
      expect(refused.text).not.toContain('not-the-token');

      const noSecret = await draftAgent(null);
      const unknown = await noSecret.push(bundleWith([mcpServer(operator.url)]));
      expect(unknown.body.error.details).toEqual([
        { field: 'bundle.mcp_servers[0].headers.Authorization', message: expect.stringContaining('ORDERS_TOKEN') },
      ]);

      const invalid = await agent.push(
        bundleWith([
          mcpServer('ftp://127.0.0.1/mcp', { name: 'Orders', allowed_tools: [], timeout_ms: 10 }),
          mcpServer(operator.url, { headers: { 'mcp-session-id': 'x' }, allowed_tools: ['a.b'] }),
        ]),
      );
      expect(invalid.status).toBe(422);
      expect(invalid.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'bundle.mcp_servers[0].allowed_tools',
        'bundle.mcp_servers[0].name',
        'bundle.mcp_servers[0].timeout_ms',
        'bundle.mcp_servers[1].allowed_tools[0]',
      ]);
      const semantic = await agent.push(
        bundleWith([mcpServer('http://169.254.169.254/mcp'), mcpServer(operator.url, { headers: { Accept: 'text/html' } })]),
      );
      // The second server repeats the first one's name, so each of its tools repeats a tool name too.
      expect(semantic.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'bundle.mcp_servers[0].url',
        'bundle.mcp_servers[1].allowed_tools[0]',
        'bundle.mcp_servers[1].allowed_tools[1]',
        'bundle.mcp_servers[1].allowed_tools[2]',
        'bundle.mcp_servers[1].headers.Accept',
        'bundle.mcp_servers[1].name',
      ]);
      // Nothing was committed by any of these.
      const revisions = await t.dataSource.query(`SELECT count(*)::int AS n FROM agent_revisions WHERE agent_id = $1`, [agent.agentId]);
      expect(revisions[0].n).toBe(1);
    });
  });

  describe('POST /mcp (agents as MCP servers)', () => {
    async function connect(token: string | null): Promise<Client> {
      const client = new Client({ name: 'e2e-ide', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
          requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
        }),
      );
      return client;
    }

    it('lists send_message, sends, continues the thread — a turn like any send', async () => {
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const client = await connect(agent.token);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['send_message']);
        expect(tools[0]!.inputSchema.required).toEqual(['text']);

        const first = (await client.callTool({
          name: 'send_message',
          arguments: { text: 'Show me trail shoes', user_id: 'ide-user' },
        })) as CallToolResult;
        expect(first.isError).toBeFalsy();
        const structured = first.structuredContent as { thread_id: string; interaction_id: string; message: { text: string } };
        expect(structured.thread_id).toMatch(/^[0-9a-f]{24}$/);
        expect(first.content).toEqual([{ type: 'text', text: structured.message.text }]);
        expect(structured.message.text.length).toBeGreaterThan(0);

        const second = (await client.callTool({
          name: 'send_message',
          arguments: { text: 'And jackets?', thread_id: structured.thread_id },
        })) as CallToolResult;
        const next = second.structuredContent as { thread_id: string; interaction_id: string };
        expect(next.thread_id).toBe(structured.thread_id);
        expect(next.interaction_id).not.toBe(structured.interaction_id);

        const thread = expectStatus(await t.http.get(`/management/v1/threads/${structured.thread_id}`, org.headers), 200, 'thread').body;
        expect(thread.user_id).toBe('ide-user');
        const interactions = await t.dataSource.query(
          `SELECT input_tokens, output_tokens, trace IS NOT NULL AS traced FROM interactions WHERE thread_id = $1 ORDER BY created_at`,
          [structured.thread_id],
        );
        expect(interactions).toHaveLength(2);
        expect(interactions.every((i: { output_tokens: number; traced: boolean }) => i.output_tokens > 0 && i.traced)).toBe(true);
        const trace = await t.http.get(`/management/v1/interactions/${next.interaction_id}/trace`, org.headers);
        expect(trace.status).toBe(200);

        const invalid = (await client.callTool({ name: 'send_message', arguments: { text: '', thread_id: 'nope' } })) as CallToolResult;
        expect(invalid.isError).toBe(true);
        expect(JSON.stringify(invalid.content)).toContain('validation_error');

        const foreign = await liveAgent(t, await t.factory.org(), { bundle: shopBundle, runtime: 'v1' });
        const elsewhere = await (
          await connect(foreign.token)
        ).callTool({
          name: 'send_message',
          arguments: { text: 'hello', thread_id: structured.thread_id },
        });
        expect(elsewhere.isError).toBe(true);
        expect(JSON.stringify(elsewhere.content)).toContain('not_found');
      } finally {
        await client.close();
      }
    });

    it('refuses a missing or invalid token (401, in the envelope) and bodies that are not one JSON-RPC message (422)', async () => {
      await expect(connect(null)).rejects.toMatchObject({ code: 401 });
      await expect(connect('not-a-token')).rejects.toMatchObject({ code: 401 });
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const plain = await t.http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, agent.headers);
      expect(plain.status).toBe(200);
      expect(plain.body.result.tools[0].name).toBe('send_message');
      const unauthenticated = await t.http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body.error).toMatchObject({ code: 'unauthorized', request_id: unauthenticated.headers.get('x-request-id') });
      for (const [body, field] of [
        [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }, 'jsonrpc'],
        [{ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }, 'id'],
        [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }, 'params'],
      ] as const) {
        const res = await t.http.post('/mcp', body, agent.headers);
        expect([res.status, res.body.error.details?.[0]?.field]).toEqual([422, field]);
      }
      const batch = await t.http.request('POST', '/mcp', {
        raw: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]),
        headers: { ...agent.headers, 'content-type': 'application/json' },
      });
      expect(batch.status).toBe(422);
      expect((await t.http.get('/mcp', agent.headers)).status).toBe(405);
      const notification = await t.http.post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, agent.headers);
      expect(notification.status).toBe(202);
    });
  });

  it('never writes a secret value to the service log (set, push and pin, an unreadable secret)', async () => {
    const value = 'sk_log_probe_5e1f0c7a9b';
    const server = orderServer(value);
    await server.start();
    const service = await startServiceProcess({ LOG_LEVEL: 'debug' });
    try {
      const agent = await t.factory.agent(org);
      const version = expectStatus(
        await service.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
        201,
        'draft',
      ).body;
      expectStatus(
        await service.http.request('PUT', `${secrets(agent.id)}/ORDERS_TOKEN`, { body: { value }, headers: org.headers }),
        204,
        'secret',
      );
      const bundle = bundleWith([mcpServer(server.url)]);
      const pushed = expectStatus(
        await service.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, org.headers),
        200,
        'push',
      ).body;
      // A value no configured key opens: the failure is logged, without the value.
      await t.dataSource.query(`UPDATE agent_secrets SET key_id = 'gone' WHERE agent_id = $1`, [agent.id]);
      const again = await service.http.post(
        `/management/v1/agents/${agent.id}/versions/${version.id}/push`,
        { bundle: { ...bundle, persona: 'x' } },
        org.headers,
      );
      expect(again.status).toBe(422);
      expect(again.text).toContain('cannot be decrypted');
      expect(pushed.revision_id).toMatch(/^[0-9a-f]{24}$/);
      await waitFor(() => service.logs.some((line) => line.includes('cannot be decrypted')), 'the logged failure');
      const logs = service.logs.join('\n');
      expect(logs).not.toContain(value);
      expect(server.seen.some((s) => s.authorization === `Bearer ${value}`)).toBe(true);
    } finally {
      await service.stop();
      await server.stop();
    }
  });
});
