import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import secureJson from 'secure-json-parse';
import type { WebSocket, RawData } from 'ws';
import { AppError, RateLimitedError, UnauthorizedError, ValidationError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { newId } from '../../common/ids/new-id.js';
import { createValidationPipe } from '../../common/validation/validation-pipe.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';
import { AuthService } from '../auth/auth.service.js';
import { rateLimitSubject, type Principal } from '../auth/principal.js';
import { TokenService } from '../auth/token.service.js';
import { LiveAgentsService } from '../messaging/live-agents.service.js';
import { MessagingService, type TurnCaller, type TurnStreamEvent } from '../messaging/messaging.service.js';
import { SessionMessageFrameDto } from './dto/session-frame.dto.js';
import { closingEvents, errorParts, toTurnRequest, type StreamEvent } from './stream-events.js';

/** Close code for missing, invalid or expired credentials (spec Authentication rule 5). */
export const CLOSE_POLICY_VIOLATION = 1008;
/** Largest client frame handled; bigger ones get an `error` frame (`payload_too_large`) and the session stays open. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Frames beyond this are not even read: `ws` closes with 1009 (protects memory). */
export const HARD_FRAME_LIMIT_BYTES = 8 * MAX_FRAME_BYTES;
/** The subprotocol browsers use to carry the token: `new WebSocket(url, ['bearer', token])`. */
export const BEARER_SUBPROTOCOL = 'bearer';
/** How often idle sessions are pinged (protocol-level ping); a peer that missed the last ping is dropped. */
const KEEPALIVE_INTERVAL_MS = 30_000;
const SHUTDOWN_GRACE_MS = 10_000;

const validation = createValidationPipe();

interface Session {
  id: string;
  socket: WebSocket;
  caller?: TurnCaller;
  /** The credential's rate-limit bucket, shared with its HTTP requests. */
  rateLimitSubject?: string;
  /** Resolves true once authenticated (false when the socket was closed for its credentials). */
  ready: Promise<boolean>;
  inFlight: Set<string>;
  expiry?: NodeJS.Timeout;
  alive: boolean;
}

type ServerFrame = Record<string, unknown> & { type: string };

/**
 * The messaging WebSocket session (DESIGN.md "WebSocket session"): authenticated once on the upgrade, then any
 * number of turns, several at a time, each told apart by the client's request `id`. A thin transport over
 * `MessagingService.send`, like SSE; a bad frame is answered with an `error` frame and never closes the session.
 */
@Injectable()
export class SessionService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Session');
  private readonly sessions = new Map<WebSocket, Session>();
  private readonly running = new Set<Promise<void>>();
  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    private readonly auth: AuthService,
    private readonly tokens: TokenService,
    private readonly messaging: MessagingService,
    private readonly live: LiveAgentsService,
    private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /** Picks `bearer` from the offered subprotocols so the browser's `['bearer', token]` handshake succeeds. */
  static selectProtocol(protocols: Set<string>): string | false {
    return protocols.has(BEARER_SUBPROTOCOL) ? BEARER_SUBPROTOCOL : false;
  }

  get size(): number {
    return this.sessions.size;
  }

  open(socket: WebSocket, request: IncomingMessage): void {
    const session: Session = { id: newId(), socket, ready: Promise.resolve(false), inFlight: new Set(), alive: true };
    this.sessions.set(socket, session);
    // Listen at once: frames sent right after the handshake wait for authentication instead of being lost.
    socket.on('message', (data, isBinary) => void this.onFrame(session, data, isBinary));
    socket.on('pong', () => { session.alive = true; });
    socket.once('close', () => this.close(socket));
    session.ready = this.authenticate(session, request);
    this.startKeepalive();
  }

  close(socket: WebSocket): void {
    const session = this.sessions.get(socket);
    if (!session) return;
    clearTimeout(session.expiry);
    this.sessions.delete(socket);
  }

  /** On shutdown, let turns that are running finish and be saved (their sessions are closed by the adapter). */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.keepalive);
    this.keepalive = undefined;
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => { timer = setTimeout(resolve, SHUTDOWN_GRACE_MS); })]);
    clearTimeout(timer);
  }

  private async authenticate(session: Session, request: IncomingMessage): Promise<boolean> {
    const { socket } = session;
    const token = bearerToken(request);
    if (!token) {
      socket.close(CLOSE_POLICY_VIOLATION, 'missing credentials: send a Bearer token');
      return false;
    }
    let principal: Principal;
    let expiresAt: number;
    try {
      const claims = await this.tokens.verify(token);
      if (!claims) throw new UnauthorizedError('The access token is invalid or expired');
      principal = await this.auth.authenticateBearer(token);
      if (principal.kind !== 'clientToken' && principal.kind !== 'session') throw new UnauthorizedError();
      if (!principal.agentId) throw new UnauthorizedError('This login session is not scoped to an agent');
      this.auth.assertOriginAllowed(principal, request.headers.origin);
      expiresAt = claims.exp * 1000;
    } catch (error) {
      const reason = error instanceof AppError && error.status < 500 ? error.message : 'credentials could not be checked';
      if (!(error instanceof AppError)) this.logger.error({ err: error }, 'session authentication failed');
      socket.close(CLOSE_POLICY_VIOLATION, closeReason(reason));
      return false;
    }
    if (socket.readyState !== socket.OPEN) return false;
    session.caller = { organizationId: principal.organizationId, agentId: principal.agentId };
    session.rateLimitSubject = rateLimitSubject(principal);
    // A token that expires during the session ends it, as it would end HTTP access.
    session.expiry = setTimeout(() => socket.close(CLOSE_POLICY_VIOLATION, 'the access token expired'), Math.max(0, expiresAt - Date.now()));
    session.expiry.unref();
    this.send(session, { type: 'ready', session_id: session.id });
    return true;
  }

  private async onFrame(session: Session, data: RawData, isBinary: boolean): Promise<void> {
    if (!(await session.ready)) return;
    const requestId = randomUUID();
    const bytes = frameLength(data);
    if (bytes > MAX_FRAME_BYTES) {
      this.sendError(session, null, new AppError(413, ErrorCode.PayloadTooLarge, `A frame may not exceed ${MAX_FRAME_BYTES} bytes`), requestId);
      return;
    }
    if (isBinary) {
      this.sendError(session, null, ValidationError.field('frame', 'Frames are JSON text frames'), requestId);
      return;
    }
    let frame: unknown;
    try {
      frame = secureJson.parse(frameText(data), undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      this.sendError(session, null, ValidationError.field('frame', 'The frame is not valid JSON'), requestId);
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      this.sendError(session, null, ValidationError.field('frame', 'A frame is a JSON object with a type'), requestId);
      return;
    }
    const { type, id } = frame as { type?: unknown; id?: unknown };
    const requestKey = typeof id === 'string' ? id : null;
    switch (type) {
      case 'ping':
        this.send(session, { type: 'pong' });
        return;
      case 'message':
        await this.message(session, frame, requestKey, requestId);
        return;
      default:
        this.sendError(session, requestKey, ValidationError.field('type', 'type must be one of: message, ping'), requestId);
    }
  }

  private async message(session: Session, frame: object, requestKey: string | null, requestId: string): Promise<void> {
    let dto: SessionMessageFrameDto;
    try {
      dto = (await validation.transform(frame, { type: 'body', metatype: SessionMessageFrameDto })) as SessionMessageFrameDto;
    } catch (error) {
      this.sendError(session, requestKey, error, requestId);
      return;
    }
    const limited = await this.rateLimited(session);
    if (limited) {
      this.sendError(session, dto.id, limited, requestId);
      return;
    }
    if (session.inFlight.has(dto.id)) {
      this.sendError(session, dto.id, ValidationError.field('id', 'A request with this id is still running on this session'), requestId);
      return;
    }
    session.inFlight.add(dto.id);
    const work = this.turn(session, dto, requestId).finally(() => session.inFlight.delete(dto.id));
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
    await work;
  }

  private async turn(session: Session, dto: SessionMessageFrameDto, requestId: string): Promise<void> {
    const caller = session.caller!;
    const id = dto.id;
    const emit = (event: StreamEvent) => this.send(session, { type: event.event, id, ...event.data });
    try {
      const agent = await this.live.get(caller.organizationId, caller.agentId);
      // Token-by-token streaming over the session is for v1 agents (spec "Stream events"); v2 gets the final message.
      const deltas = agent.runtime === 'v1';
      const outcome = await this.messaging.send(caller, toTurnRequest(dto), (event: TurnStreamEvent) => {
        if (event.type === 'thread') emit({ event: 'thread', data: { thread_id: event.thread_id, interaction_id: event.interaction_id } });
        else if (event.type === 'delta') {
          if (deltas) emit({ event: 'delta', data: { text: event.text } });
        } else emit({ event: 'card', data: { card: event.card } });
      });
      for (const event of closingEvents(outcome)) emit(event);
    } catch (error) {
      if (errorParts(error).status >= 500) this.logger.error({ err: error, reqId: requestId, sessionId: session.id }, 'session turn failed');
      this.sendError(session, id, error, requestId);
    }
  }

  /**
   * Each `message` frame counts against the credential's rate limit like an HTTP request (same Redis fixed window as
   * RateLimitGuard), so a session is no way around it: over the limit the request gets `rate_limited`.
   */
  private async rateLimited(session: Session): Promise<RateLimitedError | undefined> {
    const { max, windowSeconds } = this.config.rateLimit;
    if (max === 0 || !session.rateLimitSubject) return undefined;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const window = Math.floor(nowSeconds / windowSeconds);
    const key = this.redis.key('rl', session.rateLimitSubject, String(window));
    try {
      const results = await this.redis.client.pipeline().incr(key).expire(key, windowSeconds + 1).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      return count > max ? new RateLimitedError((window + 1) * windowSeconds - nowSeconds) : undefined;
    } catch (error) {
      this.logger.warn({ err: error }, 'rate limit check failed; allowing the request');
      return undefined;
    }
  }

  private sendError(session: Session, id: string | null, error: unknown, requestId: string): void {
    const { code, message, details } = errorParts(error);
    this.send(session, { type: 'error', id, error: { code, message, request_id: requestId, details: details ?? [] } });
  }

  private send(session: Session, frame: ServerFrame): void {
    const { socket } = session;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.config.streaming.maxBufferedBytes) {
      // The client stopped reading: drop it rather than buffer without bound.
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(frame));
  }

  private startKeepalive(): void {
    if (this.keepalive) return;
    this.keepalive = setInterval(() => {
      for (const session of this.sessions.values()) {
        if (!session.alive) {
          session.socket.terminate();
          continue;
        }
        session.alive = false;
        session.socket.ping();
      }
    }, KEEPALIVE_INTERVAL_MS);
    this.keepalive.unref();
  }
}

/** The token from `Authorization: Bearer`, `?access_token=`, or the `bearer, <token>` subprotocol pair. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('access_token');
  if (query) return query;
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  const at = offered.indexOf(BEARER_SUBPROTOCOL);
  return at >= 0 ? offered[at + 1] : undefined;
}

function frameLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** Close reasons are at most 123 bytes. */
function closeReason(reason: string): string {
  return Buffer.byteLength(reason) <= 123 ? reason : `${reason.slice(0, 110)}…`;
}
