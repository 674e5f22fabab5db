import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName } from '../../queue/job-map.js';
import { isTerminal, type StreamEvent } from './stream-events.js';

/** One buffered event: its sequence number within the interaction, its name and its JSON payload. */
export interface BufferedEvent {
  seq: number;
  event: string;
  /** The payload, already serialised as it goes on the wire. */
  json: string;
}

/** Who may read a buffer: the organization and agent the turn ran for. */
export interface BufferOwner {
  organizationId: string;
  agentId: string;
}

/**
 * The replay buffers of streamed turns (docs/streaming.md: resume with Last-Event-ID from any instance).
 *
 * Per interaction, a Redis Stream `<prefix>:replay:<interaction_id>` whose entry ids are `0-<seq>`, so "every event
 * after seq N" is `XRANGE (0-N +` and the live tail is `XREAD BLOCK … 0-N`; and `<prefix>:replay:<interaction_id>:owner`
 * (`<organization>:<agent>`), which a resume checks before it streams anything. Both expire
 * STREAM_REPLAY_TTL_SECONDS (≥ 10 minutes) after the turn's first and last event.
 *
 * While a turn runs, its process keeps `<prefix>:replay:<interaction_id>:alive` (its heartbeat) for
 * STREAM_HEARTBEAT_TTL_MS, refreshed every STREAM_HEARTBEAT_INTERVAL_MS (a periodic task) by one pipeline for all of
 * the process's running turns (never per event). A buffer without a terminal event and without a heartbeat is an orphan: the process
 * running it died, and a resume ends with an error instead of waiting.
 */
@Injectable()
export class ReplayBufferRepository {
  private readonly logger = new Logger('ReplayBuffer');
  /** The heartbeat keys of the turns running on this process. */
  private readonly beating = new Set<string>();

  constructor(
    private readonly redis: RedisService,
    private readonly config: AppConfig,
  ) {}

  /** Starts the buffer of a new turn; the owner is written before the first event. */
  open(interactionId: string, owner: BufferOwner): ReplayWriter {
    const aliveKey = this.aliveKey(interactionId);
    this.beating.add(aliveKey);
    return new ReplayWriter(
      this.redis.client,
      { stream: this.streamKey(interactionId), owner: this.ownerKey(interactionId), alive: aliveKey },
      owner,
      { ttlSeconds: this.config.streaming.replayTtlSeconds, heartbeatTtlMs: this.config.streaming.heartbeatTtlMs },
      this.logger,
      () => this.release(aliveKey),
    );
  }

  /** Whether the turn of this interaction is running on a live process (its heartbeat is fresh). */
  async running(interactionId: string): Promise<boolean> {
    return (await this.redis.client.exists(this.aliveKey(interactionId))) === 1;
  }

  /** The buffer's owner, or undefined when the interaction was never streamed or its buffer expired. */
  async owner(interactionId: string): Promise<BufferOwner | undefined> {
    const value = await this.redis.client.get(this.ownerKey(interactionId));
    if (!value) return undefined;
    const [organizationId, agentId] = value.split(':') as [string, string];
    return { organizationId, agentId };
  }

  /** Every buffered event after `afterSeq`, oldest first. */
  async after(interactionId: string, afterSeq: number): Promise<BufferedEvent[]> {
    const entries = await this.redis.client.xrange(this.streamKey(interactionId), `(0-${afterSeq}`, '+');
    return entries.map(toEvent);
  }

  /** The newest buffered event, if any. */
  async last(interactionId: string): Promise<BufferedEvent | undefined> {
    const [entry] = await this.redis.client.xrevrange(this.streamKey(interactionId), '+', '-', 'COUNT', 1);
    return entry ? toEvent(entry) : undefined;
  }

  /**
   * Follows a buffer live on its own connection: `next()` waits up to `blockMs` for events after `afterSeq`
   * (empty on timeout). Close it when done; closing also ends a pending wait.
   */
  tail(interactionId: string): ReplayTail {
    return new ReplayTail(this.redis.duplicate(), this.streamKey(interactionId));
  }

  /** Drops the buffers of these interactions (their thread was deleted); returns how many keys existed. */
  async discard(interactionIds: string[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < interactionIds.length; i += 500) {
      const keys = interactionIds.slice(i, i + 500).flatMap((id) => [this.streamKey(id), this.ownerKey(id), this.aliveKey(id)]);
      removed += await this.redis.client.unlink(...keys);
    }
    return removed;
  }

  /** One tick: refreshes the heartbeat of every turn running here, in one pipeline (nothing when none runs). */
  @JobHandler(JobName.BeatTurnHeartbeats)
  async beat(): Promise<void> {
    if (this.beating.size === 0) return;
    const ttlMs = this.config.streaming.heartbeatTtlMs;
    const pipeline = this.redis.client.pipeline();
    for (const key of this.beating) pipeline.set(key, '1', 'PX', ttlMs);
    try {
      const error = (await pipeline.exec())?.find(([e]) => e)?.[0];
      if (error) this.logger.warn({ err: error }, 'turn heartbeat refresh failed');
    } catch (error) {
      this.logger.warn({ err: error }, 'turn heartbeat refresh failed');
    }
  }

  /** The turn ended here: stop refreshing its heartbeat (it expires on its own). */
  private release(aliveKey: string): void {
    this.beating.delete(aliveKey);
  }

  private aliveKey(interactionId: string): string {
    return this.redis.key('replay', interactionId, 'alive');
  }

  private streamKey(interactionId: string): string {
    return this.redis.key('replay', interactionId);
  }

  private ownerKey(interactionId: string): string {
    return this.redis.key('replay', interactionId, 'owner');
  }
}

/**
 * Appends one turn's events in order. Events produced in the same turn of the event loop (an engine yields many deltas
 * at once) form one batch: one pipeline to Redis, one write and one reply, and one promise (`stored`) for all of them
 * — a transport that writes an event to its client only after its batch is stored never shows a client an event it
 * could not resume after. Per event this keeps its name and its JSON (serialised once, here, and reused for the wire)
 * and nothing else. A Redis failure is logged and the events still go out (that stream is then not resumable), so a
 * Redis blip never breaks a turn.
 */
export class ReplayWriter {
  /** The sequence number of the last appended event (1 for the first). */
  seq = 0;
  private failed = false;
  private ownerWritten = false;
  private closed = false;
  private batch: ReplayBatch | undefined;
  private readonly ownerValue: string;
  private readonly streamKey: string;
  private readonly ownerKey: string;

  constructor(
    private readonly client: Redis,
    private readonly keys: { stream: string; owner: string; alive: string },
    owner: BufferOwner,
    private readonly ttl: { ttlSeconds: number; heartbeatTtlMs: number },
    private readonly logger: Logger,
    private readonly onClose: () => void,
  ) {
    this.ownerValue = `${owner.organizationId}:${owner.agentId}`;
    this.streamKey = keys.stream;
    this.ownerKey = keys.owner;
  }

  /** The turn is over on this process (its last event appended, or it gave up): its heartbeat stops. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  /** Buffers the event and returns its JSON; its number is `seq`, and `stored` resolves once Redis has it. */
  append(event: StreamEvent): string {
    this.seq += 1;
    const json = JSON.stringify(event.data);
    let batch = this.batch;
    if (!batch) {
      batch = new ReplayBatch(this.seq);
      this.batch = batch;
      setImmediate(() => this.flush());
    }
    batch.events.push(event.event);
    batch.jsons.push(json);
    return json;
  }

  /** Resolves once the batch of the last appended event is in Redis (or failed to get there). */
  get stored(): Promise<void> {
    return this.batch?.stored ?? Promise.resolve();
  }

  private flush(): void {
    const batch = this.batch!;
    this.batch = undefined;
    const pipeline = this.client.pipeline();
    // The owner and the first heartbeat go with the first batch, before its events: a resume checks them first.
    if (!this.ownerWritten) {
      this.ownerWritten = true;
      pipeline.set(this.ownerKey, this.ownerValue, 'EX', this.ttl.ttlSeconds);
      pipeline.set(this.keys.alive, '1', 'PX', this.ttl.heartbeatTtlMs);
    }
    for (let i = 0; i < batch.events.length; i += 1) {
      const seq = batch.firstSeq + i;
      const event = batch.events[i]!;
      pipeline.xadd(this.streamKey, `0-${seq}`, 'e', event, 'd', batch.jsons[i]!);
      // The TTL runs from the first event and again from the last, so a buffer outlives its turn by the full TTL.
      if (seq === 1 || isTerminal(event)) {
        pipeline.expire(this.streamKey, this.ttl.ttlSeconds);
        if (seq > 1) pipeline.expire(this.ownerKey, this.ttl.ttlSeconds);
      }
    }
    const finish = (error?: unknown) => {
      if (error && !this.failed) {
        this.logger.error({ err: error, key: this.streamKey }, 'replay buffer write failed; this stream cannot be resumed');
      }
      if (error) this.failed = true;
      batch.done();
    };
    pipeline.exec().then(
      (results) => finish(results?.find(([error]) => error)?.[0] ?? undefined),
      (error: unknown) => finish(error ?? new Error('pipeline failed')),
    );
  }
}

/** The events of one turn of the event loop, stored by one pipeline. */
class ReplayBatch {
  readonly events: string[] = [];
  readonly jsons: string[] = [];
  readonly stored: Promise<void>;
  done!: () => void;

  constructor(readonly firstSeq: number) {
    this.stored = new Promise<void>((resolve) => {
      this.done = resolve;
    });
  }
}

/** A live reader of one buffer on a dedicated connection (XREAD BLOCK ties up its connection). */
export class ReplayTail {
  private closed = false;

  constructor(
    private readonly connection: Redis,
    private readonly streamKey: string,
  ) {}

  async next(afterSeq: number, blockMs: number): Promise<BufferedEvent[]> {
    if (this.closed) return [];
    try {
      const result = await this.connection.xread('BLOCK', blockMs, 'STREAMS', this.streamKey, `0-${afterSeq}`);
      return result?.[0]?.[1].map(toEvent) ?? [];
    } catch (error) {
      if (this.closed) return [];
      throw error;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.disconnect();
  }
}

function toEvent([id, fields]: [string, string[]]): BufferedEvent {
  const seq = Number(id.slice(id.indexOf('-') + 1));
  let event = '';
  let json = '{}';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'e') event = fields[i + 1]!;
    else if (fields[i] === 'd') json = fields[i + 1]!;
  }
  return { seq, event, json };
}
