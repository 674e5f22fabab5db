import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttpClient, OutboundRequestError } from './outbound-http.client.js';
import { OutboundPolicy } from './outbound-policy.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local server whose handler each test sets; records every request it reads. */
async function startServer(): Promise<{
  server: Server;
  port: number;
  seen: Seen[];
  handle: (h: (req: IncomingMessage, res: ServerResponse) => void) => void;
}> {
  const seen: Seen[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen, handle: (h) => (handler = h) };
}

async function failure(promise: Promise<unknown>): Promise<OutboundRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundRequestError);
    return error as OutboundRequestError;
  }
  throw new Error('expected the request to fail');
}

describe('OutboundHttpClient against local servers', () => {
  const allowing = new OutboundHttpClient(new OutboundPolicy(['127.0.0.0/8', '::1/128']));
  const strict = new OutboundHttpClient(new OutboundPolicy([]));
  let local: Awaited<ReturnType<typeof startServer>>;
  const hanging = new Set<ServerResponse>();
  const base = { headers: {}, timeoutMs: 2000, maxResponseBytes: 65536 };

  beforeAll(async () => {
    local = await startServer();
  });
  beforeEach(() => {
    local.seen.length = 0;
    local.handle((_req, res) => res.end('ok'));
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    allowing.onApplicationShutdown();
    strict.onApplicationShutdown();
    local.server.closeAllConnections();
    await new Promise((resolve) => local.server.close(resolve));
  });

  it('sends method, headers and body, and returns status, headers, body and latency', async () => {
    local.handle((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end('{"ok":true}');
    });
    const result = await allowing.request({
      ...base,
      method: 'post',
      url: `http://127.0.0.1:${local.port}/hook?x=1`,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"hello":"wörld"}',
    });
    expect(result.status).toBe(201);
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.headers['x-multi']).toBe('a, b');
    expect(result.body.toString()).toBe('{"ok":true}');
    expect(result.truncated).toBe(false);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(local.seen).toHaveLength(1);
    expect(local.seen[0]!).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"hello":"wörld"}' });
    expect(local.seen[0]!.headers['webhook-id']).toBe('msg_1');
    expect(local.seen[0]!.headers['content-length']).toBe(String(Buffer.byteLength('{"hello":"wörld"}')));
  });

  it('returns 4xx and 5xx as statuses, not errors', async () => {
    local.handle((_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    const result = await allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/` });
    expect(result.status).toBe(503);
    expect(result.body.toString()).toBe('down');
  });

  it('never follows a redirect: a 3xx is just a status', async () => {
    local.handle((req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { location: `http://127.0.0.1:${local.port}/target` });
        res.end();
      } else res.end('followed');
    });
    const result = await allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/start` });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(`http://127.0.0.1:${local.port}/target`);
    expect(local.seen.map((s) => s.url)).toEqual(['/start']);
  });

  it('reads at most maxResponseBytes of the body', async () => {
    local.handle((_req, res) => {
      res.write(Buffer.alloc(40_000, 'a'));
      res.end(Buffer.alloc(40_000, 'b'));
    });
    const result = await allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/big`, maxResponseBytes: 1000 });
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(1000);
    expect(result.body.toString()).toBe('a'.repeat(1000));
    expect(result.truncated).toBe(true);
    const exact = await allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/big`, maxResponseBytes: 80_000 });
    expect(exact.body).toHaveLength(80_000);
    expect(exact.truncated).toBe(false);
  });

  it('times out when no response comes, and when the body stalls', async () => {
    local.handle((_req, res) => hanging.add(res));
    const silent = await failure(allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/hang`, timeoutMs: 200 }));
    expect(silent.reason).toBe('timeout');

    local.handle((_req, res) => {
      hanging.add(res);
      res.writeHead(200);
      res.write('partial');
    });
    const stalled = await failure(
      allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/stall`, timeoutMs: 200 }),
    );
    expect(stalled.reason).toBe('timeout');
  });

  it('refuses a hostname that resolves to loopback when loopback is not allowed, without connecting', async () => {
    const error = await failure(strict.request({ ...base, method: 'GET', url: `http://localhost:${local.port}/` }));
    expect(error.reason).toBe('blocked_address');
    expect(error.message).toContain('localhost');
    expect(local.seen).toHaveLength(0);
    // The same name is reachable where loopback is allowed.
    const ok = await allowing.request({ ...base, method: 'GET', url: `http://localhost:${local.port}/` });
    expect(ok.status).toBe(200);
  });

  it('refuses literal refused addresses and invalid URLs before connecting', async () => {
    expect((await failure(strict.request({ ...base, method: 'GET', url: `http://127.0.0.1:${local.port}/` }))).reason).toBe(
      'blocked_address',
    );
    expect((await failure(strict.request({ ...base, method: 'GET', url: `http://2130706433:${local.port}/` }))).reason).toBe(
      'blocked_address',
    );
    expect((await failure(strict.request({ ...base, method: 'GET', url: 'http://169.254.169.254/latest/meta-data/' }))).reason).toBe(
      'blocked_address',
    );
    expect((await failure(strict.request({ ...base, method: 'GET', url: 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/' }))).reason).toBe(
      'blocked_address',
    );
    expect((await failure(strict.request({ ...base, method: 'GET', url: 'ftp://example.com/' }))).reason).toBe('invalid_url');
    expect((await failure(strict.request({ ...base, method: 'GET', url: 'https://u:p@example.com/' }))).reason).toBe('invalid_url');
    expect(local.seen).toHaveLength(0);
  });

  it('reports DNS failures and refused connections', async () => {
    expect((await failure(allowing.request({ ...base, method: 'GET', url: 'http://nonexistent.invalid/' }))).reason).toBe('dns_failure');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await failure(allowing.request({ ...base, method: 'GET', url: `http://127.0.0.1:${port}/` }))).reason).toBe(
      'connection_failed',
    );
  });
});
