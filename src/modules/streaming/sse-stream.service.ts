import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { AppError, NotFoundError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { AppConfig } from '../../config/app-config.js';
import { TurnPipeline } from '../messaging/turn-pipeline.js';
import type { TurnCaller, TurnRequest, TurnStreamEvent } from '../messaging/turn.types.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { ReplayBufferRepository, type BufferedEvent, type ReplayWriter } from './replay-buffer.repository.js';
import { RunningTurns } from './running-turns.js';
import type { SseConnection } from './sse-connection.js';
import { closingEvents, errorEvent, errorParts, isTerminal, toStreamEvent, type StreamEvent } from './stream-events.js';

/** `Last-Event-ID` as this service writes it: `<interaction_id>:<seq>`. */
const EVENT_ID = /^([0-9a-fA-F]{24}):(\d{1,9})$/;

/**
 * Resumes that may follow one live stream at once on this instance. Each holds a Redis connection of its own
 * (XREAD BLOCK) while the turn runs; a client needs one, a few tabs a few more.
 */
export const MAX_LIVE_RESUMES_PER_STREAM = 4;

/** How long shutdown waits for streamed turns to finish and be saved. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The `error` event of a resume whose turn stopped without an end (docs/streaming.md: send the message again). */
function interruptedError(): AppError {
  return new AppError(
    500,
    ErrorCode.InternalError,
    'The stream was interrupted: the instance running this turn stopped before it finished; send the message again',
  );
}

/** A stream transport as the service sees it: opened on the first event, then written to and ended. */
export interface SseSink {
  /** Writes the status line and headers; called once, just before the first event. */
  open(): void;
  connection: SseConnection;
  /** Awaited before the final `done` is written (an idempotent request stores its response there first). */
  beforeDone?: (id: string, json: string) => Promise<void>;
}

/**
 * SSE turns and resumes (docs/streaming.md). A new turn runs through `TurnPipeline.run` with an event
 * callback; every event is numbered, stored in the replay buffer and then written to the client, so the client's
 * ids are always resumable. The client going away never cancels the turn: it runs to the end and is saved, and its
 * events keep going to the buffer for a later resume.
 */
@Injectable()
export class SseStreamService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('SseStream');
  private readonly turns = new RunningTurns();
  private readonly connections = new Set<SseConnection>();
  /** Resumes following each live stream on this instance, by interaction id. */
  private readonly liveResumes = new Map<string, number>();

  constructor(
    private readonly turnPipeline: TurnPipeline,
    private readonly buffers: ReplayBufferRepository,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Runs one streamed turn. Failures before the first event (auth, validation, unknown thread, no live version)
   * reject before anything is written, so they become ordinary JSON error responses; later ones are an `error` event.
   */
  async turn(caller: TurnCaller, request: TurnRequest, requestId: string, sink: SseSink): Promise<void> {
    const { connection } = sink;
    let buffer: ReplayWriter | undefined;
    let interactionId = '';
    // Client writes wait for the buffer write of their batch (the events of one event-loop turn) and stay in order:
    // one link of the chain per batch, and per event only its id, name and JSON (serialised once, by the buffer).
    let chain: Promise<void> = Promise.resolve();
    let batch: { stored: Promise<void>; ids: string[]; events: string[]; jsons: string[] } | undefined;
    const write = async (frames: NonNullable<typeof batch>) => {
      for (let i = 0; i < frames.ids.length; i += 1) {
        if (frames.events[i] === 'done' && sink.beforeDone) await sink.beforeDone(frames.ids[i]!, frames.jsons[i]!);
        connection.send(frames.ids[i]!, frames.events[i]!, frames.jsons[i]!);
      }
    };
    const emit = (event: StreamEvent) => {
      const json = buffer!.append(event);
      const stored = buffer!.stored;
      if (batch?.stored !== stored) {
        const frames = { stored, ids: [] as string[], events: [] as string[], jsons: [] as string[] };
        batch = frames;
        chain = chain.then(() => stored).then(() => write(frames));
      }
      batch.ids.push(`${interactionId}:${buffer!.seq}`);
      batch.events.push(event.event);
      batch.jsons.push(json);
    };
    const onEvent = (event: TurnStreamEvent) => {
      if (event.type === 'thread') {
        interactionId = event.interaction_id;
        buffer = this.buffers.open(interactionId, caller);
        sink.open();
        this.track(connection);
      }
      emit(toStreamEvent(event));
    };

    const work = this.turnPipeline.run(caller, request, onEvent);
    this.turns.hold(work);
    try {
      try {
        const outcome = await work;
        for (const event of closingEvents(outcome)) emit(event);
      } catch (error) {
        if (!buffer) throw error;
        this.logFailure(error, requestId, interactionId);
        emit(errorEvent(error, requestId));
      }
      await chain;
    } finally {
      buffer?.close();
    }
    connection.end();
  }

  /**
   * Resumes a stream after `Last-Event-ID`: the buffered events after it, then the live tail while the turn runs.
   * Never starts a turn. Unknown, expired or another agent's interaction → 404 before anything is written.
   */
  async resume(caller: TurnCaller, lastEventId: string, requestId: string, sink: SseSink): Promise<void> {
    const match = EVENT_ID.exec(lastEventId.trim());
    // Anything that is not an id this service wrote names no stream: 404 like an unknown or expired one.
    if (!match) throw new NotFoundError('Stream');
    const interactionId = match[1]!.toLowerCase();
    const afterSeq = Number(match[2]);
    const owner = await this.buffers.owner(interactionId);
    if (!owner || owner.organizationId !== caller.organizationId || owner.agentId !== caller.agentId) throw this.resumeMissed();
    this.metrics.streamResumed('replayed');
    const missed = await this.buffers.after(interactionId, afterSeq);
    const finished = missed.some((e) => isTerminal(e.event));
    if (missed.length === 0) {
      const last = await this.buffers.last(interactionId);
      // An id past the end of a finished stream was never sent by this service.
      if (last && isTerminal(last.event) && afterSeq > last.seq) throw new NotFoundError('Stream event');
      if (last && isTerminal(last.event)) {
        sink.open();
        sink.connection.end();
        return;
      }
    }

    if (finished) {
      await this.replay(interactionId, afterSeq, missed, requestId, sink);
      return;
    }
    const following = this.liveResumes.get(interactionId) ?? 0;
    if (following >= MAX_LIVE_RESUMES_PER_STREAM) {
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `This stream is already being resumed ${MAX_LIVE_RESUMES_PER_STREAM} times; close one of those first`,
      );
    }
    this.liveResumes.set(interactionId, following + 1);
    try {
      await this.replay(interactionId, afterSeq, missed, requestId, sink);
    } finally {
      const left = (this.liveResumes.get(interactionId) ?? 1) - 1;
      if (left > 0) this.liveResumes.set(interactionId, left);
      else this.liveResumes.delete(interactionId);
    }
  }

  /** The buffered events after `afterSeq`, then (unless they end the stream) the live tail while the turn runs. */
  private async replay(interactionId: string, afterSeq: number, missed: BufferedEvent[], requestId: string, sink: SseSink): Promise<void> {
    const { connection } = sink;
    sink.open();
    this.track(connection);
    const send = (e: BufferedEvent) => connection.sendPaced(`${interactionId}:${e.seq}`, e.event, e.json);
    let seq = afterSeq;
    for (const e of missed) {
      if (!(await send(e))) return;
      seq = e.seq;
    }
    if (missed.some((e) => isTerminal(e.event))) {
      connection.end();
      return;
    }

    // Live tail: wait for the turn's next events on a dedicated connection, whichever instance runs the turn.
    const tail = this.buffers.tail(interactionId);
    connection.onClose(() => tail.close());
    const { pingIntervalMs, resumeStallMs, heartbeatTtlMs } = this.config.streaming;
    let quietSince = Date.now();
    try {
      while (!connection.closed) {
        let events = await tail.next(seq, Math.min(pingIntervalMs, resumeStallMs, heartbeatTtlMs));
        if (events.length === 0) {
          if (connection.closed) break;
          if (Date.now() - quietSince >= resumeStallMs || !(await this.buffers.running(interactionId))) {
            // The process running the turn died (its heartbeat expired), stopped writing, or the buffer expired;
            // unless the turn ended just now, the stream cannot go on: the client sends the message again.
            events = await this.buffers.after(interactionId, seq);
            if (events.length === 0) {
              const { data } = errorEvent(interruptedError(), requestId);
              connection.send('', 'error', JSON.stringify(data));
              break;
            }
          } else continue;
        }
        quietSince = Date.now();
        for (const e of events) {
          if (!(await send(e))) break;
          seq = e.seq;
          if (isTerminal(e.event)) {
            connection.end();
            return;
          }
        }
      }
    } finally {
      tail.close();
      connection.end();
    }
  }

  /** On shutdown: end open streams (clients resume on another instance) and let running turns be saved. */
  async beforeApplicationShutdown(): Promise<void> {
    for (const connection of this.connections) connection.end();
    await this.turns.settle(SHUTDOWN_GRACE_MS);
  }

  private track(connection: SseConnection): void {
    this.connections.add(connection);
    this.metrics.sseStreamOpened();
    connection.onClose(() => this.connections.delete(connection) && this.metrics.sseStreamClosed());
  }

  private resumeMissed(): NotFoundError {
    this.metrics.streamResumed('not_found');
    return new NotFoundError('Stream');
  }

  private logFailure(error: unknown, requestId: string, interactionId: string): void {
    const { status } = errorParts(error);
    if (status >= 500) this.logger.error({ err: error, reqId: requestId, interactionId }, 'streamed turn failed');
  }
}
