import type { IncomingMessage } from 'node:http';
import { bearerToken, SessionService } from './session.service.js';

const upgrade = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;

describe('WebSocket session credentials', () => {
  it('reads the token from the Authorization header, the access_token query or the bearer subprotocol', () => {
    expect(bearerToken(upgrade('/messaging/v1/session', { authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearerToken(upgrade('/messaging/v1/session?access_token=q.t'))).toBe('q.t');
    expect(bearerToken(upgrade('/messaging/v1/session', { 'sec-websocket-protocol': 'bearer, p.t' }))).toBe('p.t');
  });

  it('prefers the header, and finds nothing without one of the three', () => {
    expect(bearerToken(upgrade('/s?access_token=q', { authorization: 'Bearer h', 'sec-websocket-protocol': 'bearer, p' }))).toBe('h');
    expect(bearerToken(upgrade('/s', { authorization: 'Basic dXNlcg==' }))).toBeUndefined();
    expect(bearerToken(upgrade('/s', { 'sec-websocket-protocol': 'bearer' }))).toBeUndefined();
    expect(bearerToken(upgrade('/s'))).toBeUndefined();
  });

  it('selects the bearer subprotocol so browsers complete the handshake', () => {
    expect(SessionService.selectProtocol(new Set(['bearer', 'tok']))).toBe('bearer');
    expect(SessionService.selectProtocol(new Set(['chat']))).toBe(false);
  });
});
