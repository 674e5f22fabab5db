import { pinTool, toDefinition } from './mcp-pinning.js';
import { MCP_DESCRIPTION_MAX_CHARS } from './mcp.types.js';

describe('pinning an MCP tool definition', () => {
  const schema = { type: 'object', properties: { q: { type: 'string' } } };

  it('keeps the name, the description (cut) and the input schema as listed', () => {
    const pinned = pinTool('orders', { name: 'lookup', description: 'd'.repeat(MCP_DESCRIPTION_MAX_CHARS + 10), inputSchema: schema });
    expect('pin' in pinned && pinned.pin).toEqual({
      server: 'orders',
      tool: 'lookup',
      description: 'd'.repeat(MCP_DESCRIPTION_MAX_CHARS),
      input_schema: schema,
    });
    expect('pin' in pinned && toDefinition(pinned.pin)).toMatchObject({ name: 'orders__lookup', inputSchema: schema });
  });

  it('refuses schemas that are not object schemas, too large, too deep, or unstorable', () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 20; i += 1) deep = { type: 'object', properties: { a: deep } };
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'string' }, /not a JSON object schema/],
      [[schema], /not a JSON object schema/],
      [{ type: 'object', properties: { a: { description: 'x'.repeat(20_000) } } }, /bytes/],
      [deep, /nested deeper/],
      [{ type: 'object', description: 'a\u0000b' }, /NUL/],
      [{ type: 'object', properties: { ['\udc00']: {} } }, /surrogate/],
    ];
    for (const [inputSchema, problem] of cases) {
      const pinned = pinTool('s', { name: 't', inputSchema });
      expect('problem' in pinned && pinned.problem).toMatch(problem);
    }
  });
});
