import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ThreadLiveUpdate } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { TurnCaller } from '../messaging/turn.types.js';
import type { SseConnection } from '../streaming/sse-connection.js';
import type { FeedControlEventDto } from './dto/handoff.dto.js';
import { FEED_EVENT_ID, HandoffFeedRepository } from './handoff-feed.repository.js';

/** An open stream: the feed it follows and the last event id it was sent. */
interface Listener {
  kind: 'thread' | 'inbox';
  /** The thread id, or the organization id of an inbox. */
  key: string;
  connection: SseConnection;
  after: string;
  /** The catch-up in progress: wake-ups while it runs chain after it, so events go out once and in order. */
  pumping: Promise<void>;
}

/**
 * The handoff's resumable event streams (docs/handoff.md): a thread's (`GET /messaging/v1/threads/{threadId}/events`,
 * for end-user clients without a socket) and an organization's inbox (`GET /management/v1/inbox/stream`). Each reads
 * its feed after the client's Last-Event-ID, then stays open: a `thread.live` announcement from any process wakes the
 * streams of that thread and inbox here, which read the feed on from where they are.
 */
@Injectable()
export class HandoffStreamsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('HandoffStreams');
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly feeds: HandoffFeedRepository,
    private readonly conversations: ConversationsService,
  ) {}

  /**
   * The thread's operator messages and control changes. Without Last-Event-ID it opens with a `control` event of the
   * thread's current state (`change: "current"`), whose id resumes from there. Another agent's thread → 404.
   */
  async thread(caller: TurnCaller, threadId: string, lastEventId: string | undefined, sink: { connection: SseConnection; open(): void }) {
    const thread = await this.conversations.findThread(caller.organizationId, threadId);
    if (!thread || thread.agent_id !== caller.agentId) throw new NotFoundError('Thread');
    const resume = resumePoint(lastEventId);
    const after = resume ?? (await this.feeds.lastId('thread', thread.id));
    sink.open();
    if (resume === undefined) {
      const current: FeedControlEventDto = {
        thread_id: thread.id,
        agent_id: thread.agent_id,
        control: thread.control,
        change: 'current',
        assignee: thread.assignee_id,
        reason: thread.handoff_reason,
        text: null,
        at: new Date().toISOString(),
      };
      sink.connection.send(after, 'control', JSON.stringify(current));
    }
    this.follow({ kind: 'thread', key: thread.id, connection: sink.connection, after, pumping: Promise.resolve() });
  }

  /** The organization's inbox changes: control changes and messages of threads not under agent control. */
  async inbox(organizationId: string, lastEventId: string | undefined, sink: { connection: SseConnection; open(): void }) {
    const resume = resumePoint(lastEventId);
    const after = resume ?? (await this.feeds.lastId('inbox', organizationId));
    sink.open();
    this.follow({ kind: 'inbox', key: organizationId, connection: sink.connection, after, pumping: Promise.resolve() });
  }

  /** A change committed somewhere: the streams of its thread and of its organization's inbox read their feeds on. */
  @OnBusEvent('thread.live')
  wake(update: ThreadLiveUpdate): void {
    for (const listener of this.listeners) {
      const mine =
        listener.kind === 'thread'
          ? listener.key === update.threadId && update.audience === 'everyone'
          : listener.key === update.organizationId;
      if (mine) this.pump(listener);
    }
  }

  beforeApplicationShutdown(): void {
    for (const listener of this.listeners) listener.connection.end();
  }

  private follow(listener: Listener): void {
    this.listeners.add(listener);
    listener.connection.onClose(() => this.listeners.delete(listener));
    this.pump(listener);
  }

  private pump(listener: Listener): void {
    listener.pumping = listener.pumping.then(async () => {
      try {
        for (;;) {
          if (listener.connection.closed) return;
          const events = await this.feeds.after(listener.kind, listener.key, listener.after);
          for (const e of events) {
            if (!listener.connection.send(e.id, e.event, e.json)) return;
            listener.after = e.id;
          }
          if (events.length < 200) return;
        }
      } catch (error) {
        this.logger.warn({ err: error, feed: listener.kind }, 'handoff feed read failed; the client resumes with Last-Event-ID');
        listener.connection.end();
      }
    });
  }
}

/** The client's Last-Event-ID, when it sent one: an id this service wrote, else 404 as an unknown id is. */
function resumePoint(lastEventId: string | undefined): string | undefined {
  const id = lastEventId?.trim();
  if (!id) return undefined;
  if (!FEED_EVENT_ID.test(id)) throw new NotFoundError('Stream event');
  return id;
}
