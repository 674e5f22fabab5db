import type { TestApp } from '../support/test-app.js';
import { FakeMcpServer } from '../support/fake-mcp-server.js';
import { expectStatus } from '../support/agents.js';
import { Oracle, report, sendRaw } from './support/oracles.js';
import { seedTenant, startHostileApp, type Tenant } from './support/world.js';

const TOKEN = 'hostile-mcp-token-91c2';

/** An input schema nested `levels` deep (objects in objects). */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** MCP servers that try to make the service pin what it must not: huge, deep, unstorable schemas, a flood of tools. */
function bombServer(): FakeMcpServer {
  const ok = () => ({ content: [{ type: 'text' as const, text: 'ok' }] });
  const wide = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(40) }]));
  return new FakeMcpServer(TOKEN)
    .tool('fine', 'A well-behaved tool', { type: 'object', properties: { q: { type: 'string' } } }, ok)
    .tool('huge_schema', 'Huge input schema', { type: 'object', properties: wide }, ok)
    .tool('deep_schema', 'Deep input schema', nested(40) as { type: 'object' }, ok)
    .tool('nul_description', 'bad\u0000description', { type: 'object' }, ok)
    .tool('surrogate_schema', 'Lone surrogate', { type: 'object', properties: { ['\ud800']: { type: 'string' } } }, ok);
}

describe('hostile input: agent secrets, MCP servers in bundles, POST /mcp', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let victim: Tenant;
  let attacker: Tenant;
  const bombs = bombServer();
  const flood = new FakeMcpServer(TOKEN);
  const oracle = new Oracle('mcp');

  beforeAll(async () => {
    await bombs.start();
    for (let i = 0; i < 1500; i += 1) flood.tool(`tool_${i}`, 'd'.repeat(700), { type: 'object' }, () => ({ content: [] }));
    await flood.start();
    const started = await startHostileApp();
    ({ t, close } = started);
    victim = await seedTenant(t, 'org1');
    attacker = await seedTenant(t, 'org2');
  }, 60_000);
  afterAll(async () => {
    await close();
    await bombs.stop();
    await flood.stop();
  });

  const secretsPath = (tenant: Tenant) => `/management/v1/agents/${tenant.agentId}/secrets`;
  const answers: string[] = [];
  const send = async (operation: string, mutation: string, request: Parameters<typeof sendRaw>[1], expectation = {}) => {
    const res = await sendRaw(t.baseUrl, request);
    oracle.check(operation, mutation, res, expectation);
    answers.push(res.text);
    return res;
  };
  const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

  it('refuses secret names that try path tricks, and creates nothing under any of them', async () => {
    const h = json(victim.org.headers);
    for (const name of ['..%2F..%2Fsecrets', '%2E%2E', 'A%2FB', 'A%00B', '%C0%AF', 'A%20B', 'a.b', '1A', `A${'b'.repeat(5000)}`, 'A%ZZ']) {
      for (const method of ['PUT', 'DELETE']) {
        await send(
          `${method} secrets/{name}`,
          name,
          { method, url: `${secretsPath(victim)}/${name}`, headers: h, body: '{"value":"v"}' },
          {
            reject: true,
          },
        );
      }
    }
    for (const url of [`${secretsPath(victim)}/A/B`, `${secretsPath(victim)}/`, `${secretsPath(victim)}/../keys`]) {
      await send('PUT secrets (other shapes)', url, { method: 'PUT', url, headers: h, body: '{"value":"v"}' }, { reject: true });
    }
    const rows = await t.dataSource.query(`SELECT name FROM agent_secrets WHERE agent_id = $1 ORDER BY name`, [victim.agentId]);
    expect(rows.map((r: { name: string }) => r.name)).toEqual([victim.secretName]);
  });

  it("refuses another organization's secrets (404) and oversized or unstorable values, and never shows a value", async () => {
    const other = json(attacker.org.headers);
    await send(
      'PUT secret',
      'other tenant',
      { method: 'PUT', url: `${secretsPath(victim)}/${victim.secretName}`, headers: other, body: '{"value":"stolen"}' },
      {
        reject: true,
        statuses: [404],
      },
    );
    await send(
      'DELETE secret',
      'other tenant',
      { method: 'DELETE', url: `${secretsPath(victim)}/${victim.secretName}`, headers: other },
      {
        reject: true,
        statuses: [404],
      },
    );
    await send(
      'GET secrets',
      'other tenant',
      { method: 'GET', url: secretsPath(victim), headers: other },
      { reject: true, statuses: [404] },
    );
    const h = json(victim.org.headers);
    const url = `${secretsPath(victim)}/BIG`;
    for (const [name, body, statuses] of [
      ['value over the 1 MiB body limit', JSON.stringify({ value: 'v'.repeat(1024 * 1024) }), [413]],
      ['value of 5000 characters', JSON.stringify({ value: 'v'.repeat(5000) }), [422]],
      ['value with NUL', JSON.stringify({ value: 'a\u0000b' }), [422]],
      ['value with a lone surrogate', '{"value":"a\\ud800b"}', [422]],
      ['value with CR LF (header injection)', JSON.stringify({ value: 'a\r\nX-Evil: 1' }), [422]],
      ['value as an object', JSON.stringify({ value: { $gt: '' } }), [422]],
      ['10,000-level nesting', `{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, [422]],
    ] as const) {
      await send('PUT secret', name, { method: 'PUT', url, headers: h, body }, { reject: true, statuses: [...statuses] });
    }
    const [row] = await t.dataSource.query(`SELECT value_sealed FROM agent_secrets WHERE agent_id = $1 AND name = $2`, [
      victim.agentId,
      victim.secretName,
    ]);
    expect(Buffer.from(row.value_sealed).includes(Buffer.from('stolen'))).toBe(false);
    expect((await t.http.get(`/management/v1/agents/${victim.agentId}/secrets/${victim.secretName}`, victim.org.headers)).status).toBe(405);
  });

  it('refuses to pin schema bombs, unstorable definitions and tool floods (422 naming the tool or the server)', async () => {
    const h = victim.org.headers;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${victim.agentId}/versions`, { source: 'empty' }, h),
      201,
      'draft',
    ).body;
    const push = (url: string, allowed: string[]) =>
      send('POST push', `mcp_servers allowing ${allowed.join(', ')}`, {
        method: 'POST',
        url: `/management/v1/agents/${victim.agentId}/versions/${version.id}/push`,
        headers: json(h),
        body: JSON.stringify({
          bundle: {
            name: 'Bombs',
            mcp_servers: [
              { name: 'ops', url, headers: { Authorization: `Bearer {{secret:${victim.secretName}}}` }, allowed_tools: allowed },
            ],
          },
        }),
      });
    expectStatus(
      await t.http.request('PUT', `${secretsPath(victim)}/${victim.secretName}`, { body: { value: TOKEN }, headers: h }),
      204,
      'token secret',
    );
    for (const [tool, message] of [
      ['huge_schema', /bytes/],
      ['deep_schema', /nested deeper/],
      ['nul_description', /NUL/],
      ['surrogate_schema', /surrogate/],
    ] as const) {
      const res = await push(bombs.url, ['fine', tool]);
      expect(res.status).toBe(422);
      expect(res.json.error.details).toEqual([
        { field: 'bundle.mcp_servers[0].allowed_tools[1]', message: expect.stringMatching(message) },
      ]);
    }
    const flooded = await push(flood.url, ['tool_1']);
    expect(flooded.status).toBe(422);
    expect(flooded.json.error.details).toEqual([{ field: 'bundle.mcp_servers[0].url', message: expect.stringContaining('bytes') }]);
    expect((await push(bombs.url, ['fine'])).status).toBe(200);
    const pins = await t.dataSource.query(`SELECT tools FROM mcp_tool_pins WHERE agent_id = $1`, [victim.agentId]);
    expect(pins.map((p: { tools: Array<{ tool: string }> }) => p.tools.map((x) => x.tool))).toEqual([['fine']]);
  });

  it('answers POST /mcp abuse inside the envelope or as tool errors: oversized text, deep params, batches, other threads', async () => {
    const h = json(victim.bearer);
    const call = (args: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'send_message', arguments: args } });
    for (const [name, args] of [
      ['text of 16,385 characters', { text: 'x'.repeat(16_385) }],
      ['another organization’s thread', { text: 'hi', thread_id: attacker.threadId }],
      ['unknown argument', { text: 'hi', agent_id: attacker.agentId }],
      ['user_id of 300 characters', { text: 'hi', user_id: 'u'.repeat(300) }],
    ] as const) {
      const res = await send('POST /mcp', name, { method: 'POST', url: '/mcp', headers: h, body: call(args) });
      expect([name, res.status, res.json.result.isError]).toEqual([name, 200, true]);
    }
    for (const [name, body] of [
      ['batch', JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }])],
      ['10,000-level params', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`],
      ['NUL in arguments', call({ text: 'a\u0000b' })],
      ['id as an object', JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' })],
    ] as const) {
      await send('POST /mcp', name, { method: 'POST', url: '/mcp', headers: h, body }, { reject: true, statuses: [422] });
    }
    await send(
      'POST /mcp',
      'management key',
      { method: 'POST', url: '/mcp', headers: json(victim.org.headers), body: call({ text: 'hi' }) },
      {
        reject: true,
        statuses: [401],
      },
    );
    // The attacker's thread got no turn from the victim's token.
    const turns = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE thread_id = $1`, [attacker.threadId]);
    expect(turns[0].n).toBe(1);
  });

  it('showed no secret value in any answer above, and kept every answer inside the contract', () => {
    // No answer to anyone showed a secret value.
    for (const value of [victim.secretValue, attacker.secretValue, TOKEN]) {
      const shown = answers.filter((text) => text.includes(value));
      if (shown.length > 0) {
        oracle.record({ operation: '*', mutation: '-', status: 0, problem: 'secret value in an answer', excerpt: shown[0]! });
      }
    }
    report(oracle);
    expect(oracle.sent).toBeGreaterThan(40);
    if (oracle.violations.length > 0) throw new Error(oracle.summary(40));
  });
});
