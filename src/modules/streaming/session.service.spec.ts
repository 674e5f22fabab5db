import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { jest } from '@jest/globals';
import { UnauthorizedError } from '../../common/errors/app-error.js';
import { handshakeToken, SessionService } from './session.service.js';

const upgrade = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

describe('WebSocket session credentials', () => {
  it('reads the token from the Authorization header, the access_token query or the bearer subprotocol', () => {
    expect(handshakeToken(upgrade('/messaging/v1/session', { authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(handshakeToken(upgrade('/messaging/v1/session?access_token=q.t'))).toBe('q.t');
    expect(handshakeToken(upgrade('/messaging/v1/session', { 'sec-websocket-protocol': 'bearer, p.t' }))).toBe('p.t');
  });

  it('prefers the header, and finds nothing without one of the three', () => {
    expect(handshakeToken(upgrade('/s?access_token=q', { authorization: 'Bearer h', 'sec-websocket-protocol': 'bearer, p' }))).toBe('h');
    expect(handshakeToken(upgrade('/s', { authorization: 'Basic dXNlcg==' }))).toBeUndefined();
    expect(handshakeToken(upgrade('/s', { 'sec-websocket-protocol': 'bearer' }))).toBeUndefined();
    expect(handshakeToken(upgrade('/s'))).toBeUndefined();
  });

  it('selects the bearer subprotocol so browsers complete the handshake', () => {
    expect(SessionService.selectProtocol(new Set(['bearer', 'tok']))).toBe('bearer');
    expect(SessionService.selectProtocol(new Set(['chat']))).toBe(false);
  });
});

describe('WebSocket session: revocation reaches open sessions', () => {
  const OPEN = 1;
  type FakeSocket = EventEmitter & {
    readyState: number;
    OPEN: number;
    bufferedAmount: number;
    sent: any[];
    close: jest.Mock<(code: number, reason?: string) => void>;
    send: (data: string) => void;
    ping: () => void;
    terminate: () => void;
  };

  function fakeSocket(): FakeSocket {
    const socket = Object.assign(new EventEmitter(), {
      readyState: OPEN,
      OPEN,
      bufferedAmount: 0,
      sent: [] as any[],
      ping: () => undefined,
      terminate: () => undefined,
    }) as FakeSocket;
    socket.send = (data: string) => socket.sent.push(JSON.parse(data));
    socket.close = jest.fn((code: number, _reason?: string) => {
      socket.readyState = 2;
      socket.emit('close', code);
    });
    return socket;
  }

  function setup() {
    const revoked = new Set<string>();
    let listener: () => void = () => undefined;
    const auth = {
      onCredentialsChanged: (l: () => void) => {
        listener = l;
        return () => undefined;
      },
      authenticateMessagingToken: async (token: string) => {
        if (revoked.has(token)) throw new UnauthorizedError('The publishable key behind this token was revoked');
        const principal = {
          kind: 'clientToken',
          organizationId: 'o',
          agentId: 'a',
          publishableKeyId: token,
          allowedOrigins: [],
          allowedIpRanges: [],
        };
        return { principal, expiresAt: Date.now() + 3_600_000 };
      },
    };
    const config = {
      http: { trustedProxies: { kind: 'off' } },
      session: { framesPerSecond: 10, frameBurst: 30, maxInFlight: 8, maxPerCredential: 1000 },
      streaming: { maxBufferedBytes: 1 << 20 },
    };
    const metrics = { wsSessionOpened: () => undefined, wsSessionClosed: () => undefined };
    const service = new SessionService(auth as never, {} as never, config as never, {} as never, metrics as never, {} as never);
    service.onModuleInit();
    const connect = async (token: string) => {
      const socket = fakeSocket();
      service.open(socket as never, upgrade('/messaging/v1/session', { authorization: `Bearer ${token}` }));
      for (let i = 0; i < 10 && socket.sent.length === 0; i += 1) await new Promise((r) => setImmediate(r));
      expect(socket.sent).toEqual([{ type: 'ready', session_id: expect.any(String) }]);
      return socket;
    };
    return { service, connect, revoke: (token: string) => revoked.add(token), fire: () => listener() };
  }

  const settle = () => new Promise((r) => setTimeout(r, 10));

  it('closes idle sessions whose credential fails the re-check with 1008; the others stay open', async () => {
    const { connect, revoke, fire, service } = setup();
    const [a1, a2, b] = [await connect('key-a'), await connect('key-a'), await connect('key-b')];
    revoke('key-a');
    fire();
    await settle();
    expect(a1.close).toHaveBeenCalledWith(1008, expect.stringContaining('revoked'));
    expect(a2.close).toHaveBeenCalledWith(1008, expect.any(String));
    expect(b.close).not.toHaveBeenCalled();
    expect(service.size).toBe(1);
  });

  it('runs one more round when a change arrives during a round', async () => {
    const { connect, revoke, fire } = setup();
    const a = await connect('key-a');
    const b = await connect('key-b');
    revoke('key-a');
    fire();
    revoke('key-b');
    fire();
    await settle();
    expect(a.close).toHaveBeenCalledWith(1008, expect.any(String));
    expect(b.close).toHaveBeenCalledWith(1008, expect.any(String));
  });
});
