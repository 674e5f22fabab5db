import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import secureJson from 'secure-json-parse';
import type { WebSocket, RawData } from 'ws';
import { AppError, ValidationError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { upgradeClientAddress } from '../../common/http/client-address.js';
import { newId } from '../../common/ids/new-id.js';
import { INPUT_LIMITS } from '../../common/validation/input-limits.js';
import { assertDepthWithin, firstUnstorable } from '../../common/validation/safe-json.js';
import { createValidationPipe } from '../../common/validation/validation-pipe.js';
import { FixedWindowLimiter } from '../auth/rate-limit/fixed-window.limiter.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { AuthService, type MessagingClient } from '../auth/auth.service.js';
import { bearerToken } from '../auth/strategies/bearer-token.strategy.js';
import { rateLimitSubject, type AgentPrincipal } from '../auth/principal.js';
import { toTurnRequest } from '../messaging/dto/send-message.dto.js';
import { TurnPipeline } from '../messaging/turn-pipeline.js';
import type { TurnCaller, TurnStreamEvent } from '../messaging/turn.types.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { SessionMessageFrameDto } from './dto/session-frame.dto.js';
import { FrameBucket } from './frame-bucket.js';
import { RunningTurns } from './running-turns.js';
import { closingEvents, errorParts, toStreamEvent, type StreamEvent } from './stream-events.js';

/** Close code for missing, invalid, expired or revoked credentials (spec Authentication rule 5), and for floods. */
export const CLOSE_POLICY_VIOLATION = 1008;
/** Close code when the credential already holds SESSION_MAX_PER_CREDENTIAL sessions here: retry once one closes. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
/** The subprotocol browsers use to carry the token: `new WebSocket(url, ['bearer', token])`. */
export const BEARER_SUBPROTOCOL = 'bearer';
const SHUTDOWN_GRACE_MS = 10_000;
/** Credential re-checks run at once after a revocation; the first of each credential reloads it, the rest hit the cache. */
const RECHECK_CONCURRENCY = 8;

const validation = createValidationPipe();

interface Session {
  id: string;
  socket: WebSocket;
  /** The upgrade's token, Origin and client address, re-checked on every `message` frame and after every revocation. */
  token?: string;
  client?: MessagingClient;
  caller?: TurnCaller;
  /** The credential's rate-limit bucket, shared with its HTTP requests; also the key of the per-credential session cap. */
  rateLimitSubject?: string;
  /** Resolves true once authenticated (false when the socket was closed for its credentials). */
  ready: Promise<boolean>;
  inFlight: Set<string>;
  frames: FrameBucket;
  expiry?: NodeJS.Timeout;
  alive: boolean;
}

type ServerFrame = Record<string, unknown> & { type: string };

/**
 * The messaging WebSocket session (docs/streaming.md): authenticated on the upgrade, then any number of
 * turns, several at a time, each told apart by the client's request `id`. A thin transport over
 * `TurnPipeline.run`, like SSE; a bad frame is answered with an `error` frame and the session stays open.
 *
 * The credential is re-checked on every `message` frame and, for every open session, whenever a credential is revoked
 * or deleted: a session that lost its credential is closed with 1008 (docs/security.md). Abuse is refused
 * before any expensive work: `ws` closes on frames over SESSION_MAX_FRAME_BYTES (1009), a per-session token bucket
 * refuses frames before they are parsed and closes a session that keeps flooding (1008), parsing refuses deep nesting
 * before building anything, and a session runs at most SESSION_MAX_IN_FLIGHT turns at once.
 */
@Injectable()
export class SessionService implements BeforeApplicationShutdown, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Session');
  private readonly sessions = new Map<WebSocket, Session>();
  /** Authenticated sessions per credential (rate-limit subject) on this instance. */
  private readonly perCredential = new Map<string, number>();
  private readonly turns = new RunningTurns();
  private unsubscribe: (() => void) | undefined;
  private recheckRound: Promise<void> | undefined;
  private recheckAgain = false;
  private readonly limiter: FixedWindowLimiter;

  constructor(
    private readonly auth: AuthService,
    private readonly turnPipeline: TurnPipeline,
    private readonly config: AppConfig,
    redis: RedisService,
    private readonly metrics: MetricsService,
  ) {
    this.limiter = new FixedWindowLimiter(redis, config, metrics);
  }

  /** Picks `bearer` from the offered subprotocols so the browser's `['bearer', token]` handshake succeeds. */
  static selectProtocol(protocols: Set<string>): string | false {
    return protocols.has(BEARER_SUBPROTOCOL) ? BEARER_SUBPROTOCOL : false;
  }

  get size(): number {
    return this.sessions.size;
  }

  onModuleInit(): void {
    this.unsubscribe = this.auth.onCredentialsChanged(() => this.recheckOpenSessions());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  open(socket: WebSocket, request: IncomingMessage): void {
    const { framesPerSecond, frameBurst } = this.config.session;
    const session: Session = {
      id: newId(),
      socket,
      ready: Promise.resolve(false),
      inFlight: new Set(),
      frames: new FrameBucket(framesPerSecond, frameBurst),
      alive: true,
    };
    this.sessions.set(socket, session);
    this.metrics.wsSessionOpened();
    // Listen at once: frames sent right after the handshake wait for authentication instead of being lost.
    socket.on('message', (data, isBinary) => void this.onFrame(session, data, isBinary));
    socket.on('pong', () => {
      session.alive = true;
    });
    socket.once('close', () => this.close(socket));
    session.ready = this.authenticate(session, request);
  }

  close(socket: WebSocket): void {
    const session = this.sessions.get(socket);
    if (!session) return;
    clearTimeout(session.expiry);
    this.sessions.delete(socket);
    this.metrics.wsSessionClosed();
    if (session.rateLimitSubject) {
      const left = (this.perCredential.get(session.rateLimitSubject) ?? 1) - 1;
      if (left > 0) this.perCredential.set(session.rateLimitSubject, left);
      else this.perCredential.delete(session.rateLimitSubject);
    }
  }

  /** On shutdown, let turns that are running finish and be saved (their sessions are closed by the adapter). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.turns.settle(SHUTDOWN_GRACE_MS);
  }

  private async authenticate(session: Session, request: IncomingMessage): Promise<boolean> {
    const { socket } = session;
    const token = handshakeToken(request);
    if (!token) {
      socket.close(CLOSE_POLICY_VIOLATION, 'missing credentials: send a Bearer token');
      return false;
    }
    const client: MessagingClient = { origin: request.headers.origin, ip: upgradeClientAddress(request, this.config.http.trustedProxies) };
    // Known before the check, so a revocation while it runs re-checks this session too.
    session.token = token;
    session.client = client;
    let principal: AgentPrincipal;
    let expiresAt: number;
    try {
      ({ principal, expiresAt } = await this.auth.authenticateMessagingToken(token, client));
    } catch (error) {
      const reason = error instanceof AppError && error.status < 500 ? error.message : 'credentials could not be checked';
      if (!(error instanceof AppError)) this.logger.error({ err: error }, 'session authentication failed');
      socket.close(CLOSE_POLICY_VIOLATION, closeReason(reason));
      return false;
    }
    if (socket.readyState !== socket.OPEN) return false;
    const subject = rateLimitSubject(principal);
    const held = this.perCredential.get(subject) ?? 0;
    if (held >= this.config.session.maxPerCredential) {
      socket.close(CLOSE_TRY_AGAIN_LATER, 'too many open sessions for this credential');
      return false;
    }
    this.perCredential.set(subject, held + 1);
    session.rateLimitSubject = subject;
    session.caller = { organizationId: principal.organizationId, agentId: principal.agentId };
    // A token that expires during the session ends it, as it would end HTTP access.
    session.expiry = setTimeout(
      () => socket.close(CLOSE_POLICY_VIOLATION, 'the access token expired'),
      Math.max(0, expiresAt - Date.now()),
    );
    session.expiry.unref();
    this.send(session, { type: 'ready', session_id: session.id });
    return true;
  }

  private async onFrame(session: Session, data: RawData, isBinary: boolean): Promise<void> {
    const { socket } = session;
    // A closing session reads nothing more (`ws` still delivers frames that were already on the wire).
    if (socket.readyState !== socket.OPEN) return;
    // The rate is checked before anything else, so a flood costs a counter per frame, not a parse.
    const admission = session.frames.take();
    if (admission === 'close') {
      socket.close(CLOSE_POLICY_VIOLATION, 'policy violation: too many frames');
      return;
    }
    if (admission === 'refuse') {
      this.sendError(session, null, new AppError(429, ErrorCode.RateLimited, 'Too many frames on this session; slow down'), randomUUID());
      return;
    }
    if (!(await session.ready)) return;
    const requestId = randomUUID();
    if (isBinary) {
      this.sendError(session, null, ValidationError.field('frame', 'Frames are JSON text frames'), requestId);
      return;
    }
    let frame: unknown;
    try {
      frame = parseFrame(frameText(data));
    } catch (error) {
      this.sendError(session, null, error, requestId);
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      this.sendError(session, null, ValidationError.field('frame', 'A frame is a JSON object with a type'), requestId);
      return;
    }
    const { type, id } = frame as { type?: unknown; id?: unknown };
    const requestKey = typeof id === 'string' ? id : null;
    // Strings PostgreSQL would refuse are named by their path in the frame (`text`), like the frame's other errors;
    // checked once the request id is known, so the error frame carries it.
    const unstorable = firstUnstorable(frame, '');
    if (unstorable) {
      const field = unstorable.field || 'frame';
      this.sendError(session, requestKey, ValidationError.field(field, `${field} ${unstorable.reason}`), requestId);
      return;
    }
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
    // Authenticate, then validate: a revoked credential runs nothing more, whatever the frame says.
    if (!(await this.stillAuthorized(session, requestKey, requestId))) return;
    let dto: SessionMessageFrameDto;
    try {
      dto = (await validation.transform(frame, { type: 'body', metatype: SessionMessageFrameDto })) as SessionMessageFrameDto;
    } catch (error) {
      this.sendError(session, requestKey, error, requestId);
      return;
    }
    if (session.inFlight.has(dto.id)) {
      this.sendError(session, dto.id, ValidationError.field('id', 'A request with this id is still running on this session'), requestId);
      return;
    }
    const { maxInFlight } = this.config.session;
    if (session.inFlight.size >= maxInFlight) {
      const busy = new AppError(
        429,
        ErrorCode.RateLimited,
        `At most ${maxInFlight} requests run at once on one session; send this one when another is done`,
      );
      this.sendError(session, dto.id, busy, requestId);
      return;
    }
    // The place is taken before the rate-limit round trip, so frames arriving meanwhile see it.
    session.inFlight.add(dto.id);
    // Each `message` frame counts against the credential's rate limit like an HTTP request: a session is no way around it.
    const limited = session.rateLimitSubject ? await this.limiter.hit(session.rateLimitSubject) : undefined;
    if (limited) {
      session.inFlight.delete(dto.id);
      this.sendError(session, dto.id, limited, requestId);
      return;
    }
    const work = this.turn(session, dto, requestId).finally(() => session.inFlight.delete(dto.id));
    this.turns.hold(work);
    await work;
  }

  private async turn(session: Session, dto: SessionMessageFrameDto, requestId: string): Promise<void> {
    const caller = session.caller!;
    const id = dto.id;
    const emit = (event: StreamEvent) => this.send(session, { type: event.event, id, ...event.data });
    try {
      // Token-by-token streaming over the session is for v1 agents (spec "Stream events"); v2 gets the final message.
      let deltas = false;
      const outcome = await this.turnPipeline.run(caller, toTurnRequest(dto, 'ws'), (event: TurnStreamEvent) => {
        if (event.type === 'thread') deltas = event.runtime === 'v1';
        if (event.type !== 'delta' || deltas) emit(toStreamEvent(event));
      });
      for (const event of closingEvents(outcome)) emit(event);
    } catch (error) {
      if (errorParts(error).status >= 500) {
        this.logger.error({ err: error, reqId: requestId, sessionId: session.id }, 'session turn failed');
      }
      this.sendError(session, id, error, requestId);
    }
  }

  /**
   * Re-checks an open session's credential (from the credential cache, so cheap). Refused → closed with 1008. When the
   * check itself fails (database down), the session stays open; the frame being handled, if any, gets the error.
   */
  private async stillAuthorized(session: Session, requestKey: string | null = null, requestId?: string): Promise<boolean> {
    try {
      await this.auth.authenticateMessagingToken(session.token!, session.client!);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        session.socket.close(CLOSE_POLICY_VIOLATION, closeReason(error.message));
        return false;
      }
      this.logger.error({ err: error, sessionId: session.id }, 'session credential re-check failed');
      if (requestId) this.sendError(session, requestKey, error, requestId);
      return false;
    }
  }

  /** After a revocation or deletion anywhere, every open session re-checks its credential (one round at a time). */
  private recheckOpenSessions(): void {
    if (this.recheckRound) {
      this.recheckAgain = true;
      return;
    }
    this.recheckRound = this.recheckAll().finally(() => {
      this.recheckRound = undefined;
      if (this.recheckAgain) {
        this.recheckAgain = false;
        this.recheckOpenSessions();
      }
    });
  }

  private async recheckAll(): Promise<void> {
    const authenticated = [...this.sessions.values()].filter((s) => s.token && s.socket.readyState === s.socket.OPEN);
    for (let i = 0; i < authenticated.length; i += RECHECK_CONCURRENCY) {
      await Promise.all(authenticated.slice(i, i + RECHECK_CONCURRENCY).map((s) => this.stillAuthorized(s)));
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

  /** Pings every session (protocol-level ping, a periodic task); a peer that missed the last ping is dropped. */
  @JobHandler(JobName.PingSessions)
  pingSessions(): void {
    for (const session of this.sessions.values()) {
      if (!session.alive) {
        session.socket.terminate();
        continue;
      }
      session.alive = false;
      session.socket.ping();
    }
  }
}

/** The token from `Authorization: Bearer`, `?access_token=`, or the `bearer, <token>` subprotocol pair. */
export function handshakeToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header) return bearerToken(header);
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('access_token');
  if (query) return query;
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const at = offered.indexOf(BEARER_SUBPROTOCOL);
  return at >= 0 ? offered[at + 1] : undefined;
}

/** A frame's JSON: nesting is bounded while scanning, before anything is built (as parseUntrustedJson does). */
function parseFrame(text: string): unknown {
  assertDepthWithin(text, INPUT_LIMITS.jsonMaxDepth, 'frame');
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw ValidationError.field('frame', 'The frame is not valid JSON');
  }
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
