import { Injectable } from '@nestjs/common';
import { RedisService } from '../../common/redis/redis.service.js';

/** One event of a feed: its id (the SSE `id`, a Redis stream entry id), its name and its JSON payload. */
export interface FeedEvent {
  id: string;
  event: 'message' | 'control';
  json: string;
}

/** How many events a feed keeps (older ones are trimmed), and for how long after its last event. */
const FEED_MAX_EVENTS = 1000;
const FEED_TTL_SECONDS = 7 * 24 * 3600;
/** A feed event id as Redis writes it: `<ms>-<n>`. */
export const FEED_EVENT_ID = /^\d{1,15}-\d{1,9}$/;

/**
 * The handoff feeds (docs/handoff.md): per thread, the operator messages and control changes its end user is shown
 * (`GET /messaging/v1/threads/{threadId}/events`); per organization, the inbox's changes (`GET
 * /management/v1/inbox/stream`). Redis streams, written once by the process that committed the change; their entry
 * ids are the SSE event ids, so a client resumes with Last-Event-ID. The transcript in PostgreSQL stays the record:
 * a feed is bounded (FEED_MAX_EVENTS, FEED_TTL_SECONDS) and best effort.
 */
@Injectable()
export class HandoffFeedRepository {
  constructor(private readonly redis: RedisService) {}

  /** Appends one event to each of the feeds (one round trip). */
  async append(feeds: Array<{ kind: 'thread' | 'inbox'; id: string }>, event: FeedEvent['event'], json: string): Promise<void> {
    const pipeline = this.redis.client.multi();
    for (const feed of feeds) {
      const key = this.key(feed.kind, feed.id);
      pipeline.xadd(key, 'MAXLEN', '~', String(FEED_MAX_EVENTS), '*', 'e', event, 'd', json);
      pipeline.expire(key, FEED_TTL_SECONDS);
    }
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  }

  /** The events after `afterId` (exclusive), oldest first, at most `limit`. */
  async after(kind: 'thread' | 'inbox', id: string, afterId: string, limit = 200): Promise<FeedEvent[]> {
    const entries = await this.redis.client.xrange(this.key(kind, id), `(${afterId}`, '+', 'COUNT', limit);
    return entries.map(([entryId, fields]) => ({ id: entryId, event: fields[1] as FeedEvent['event'], json: fields[3]! }));
  }

  /** The id of the feed's latest event, or `0-0` for an empty feed. */
  async lastId(kind: 'thread' | 'inbox', id: string): Promise<string> {
    const last = await this.redis.client.xrevrange(this.key(kind, id), '+', '-', 'COUNT', 1);
    return last[0]?.[0] ?? '0-0';
  }

  private key(kind: 'thread' | 'inbox', id: string): string {
    return this.redis.key('handoff', kind, id);
  }
}
