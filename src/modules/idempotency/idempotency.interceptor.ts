import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defer, from, mergeAll, of, type Observable } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { SSE_HEADERS, sseFrame } from '../../common/http/sse.js';
import {
  IDEMPOTENT,
  idempotencyContextOf,
  setIdempotencyContext,
  type IdempotentOptions,
  type RecordedStreamEvent,
} from './idempotency-context.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf } from './idempotency-key.js';
import { IdempotencyService, type IdempotencyOutcome, type IdempotencyTicket } from './idempotency.service.js';

type KeyedFastifyRequest = FastifyRequest & { user?: Principal };

/**
 * Runs routes marked `@Idempotent()` once per Idempotency-Key (docs/idempotency.md); the decorator attaches it. An
 * interceptor so that it runs after the guards: the credential the key is scoped to is known, and a request without a valid one
 * is 401 before any key is looked at. A request without the header costs nothing here (no round trip).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  // Route metadata never changes after start-up: read once per handler (null: not idempotent).
  private readonly optionsByHandler = new WeakMap<object, IdempotentOptions | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const options = this.optionsOf(context);
    if (!options) return next.handle();
    const request = context.switchToHttp().getRequest<KeyedFastifyRequest>();
    if (request.headers[IDEMPOTENCY_KEY_HEADER] === undefined || !request.user) return next.handle();
    // A stream resume (Last-Event-ID) never starts a turn: it is idempotent by itself, and the body is ignored.
    if (options.stream && (request.headers['last-event-id'] ?? '').toString().trim() !== '') return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return defer(async () => {
      const outcome = await this.idempotency.begin({
        principal: request.user!,
        key: idempotencyKeyOf(request)!,
        method: request.method,
        route: request.routeOptions.url ?? request.url.split('?')[0]!,
        path: request.url.split('?')[0]!,
        body: request.body,
      });
      return outcome.kind === 'replay' ? this.replay(outcome, reply) : this.run(outcome.ticket, request, reply, options, next);
    }).pipe(mergeAll());
  }

  private optionsOf(context: ExecutionContext): IdempotentOptions | null {
    const handler = context.getHandler();
    let options = this.optionsByHandler.get(handler);
    if (options === undefined) {
      options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT, handler) ?? null;
      this.optionsByHandler.set(handler, options);
    }
    return options;
  }

  /** The stored first response, marked as a replay; the handler does not run. */
  private replay(outcome: Extract<IdempotencyOutcome, { kind: 'replay' }>, reply: FastifyReply): Observable<unknown> {
    void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (outcome.responseKind === 'sse') {
      const events = JSON.parse(outcome.body) as RecordedStreamEvent[];
      // The stream route writes its own response (@Res()), so the replay is sent here, as one body.
      void reply
        .status(outcome.status)
        .headers({ ...SSE_HEADERS })
        .send(events.map((e) => sseFrame(e.id, e.event, e.json)).join(''));
      return of(undefined);
    }
    void reply.status(outcome.status);
    return of(JSON.parse(outcome.body) as unknown);
  }

  /** This request holds the key: run the handler, then store its 2xx response or free the key. */
  private run(
    ticket: IdempotencyTicket,
    request: KeyedFastifyRequest,
    reply: FastifyReply,
    options: IdempotentOptions,
    next: CallHandler,
  ): Observable<unknown> {
    setIdempotencyContext(request, {
      resourceId: ticket.resourceId,
      ...(options.stream ? { storeStream: (events) => this.idempotency.complete(ticket, 200, 'sse', JSON.stringify(events)) } : {}),
    });
    return from(
      (async () => {
        let value: unknown;
        try {
          value = await new Promise<unknown>((resolve, reject) => {
            let last: unknown;
            next.handle().subscribe({ next: (v) => (last = v), error: reject, complete: () => resolve(last) });
          });
        } catch (error) {
          await this.idempotency.release(ticket);
          throw error;
        }
        if (options.stream) {
          const streamContext = idempotencyContextOf(request);
          if (streamContext?.streamStored) return value;
          const events = streamContext?.streamEvents ?? [];
          // Only a stream that finished its turn is kept; one that ended in an `error` event (or never began) failed.
          if (events.at(-1)?.event === 'done') await this.idempotency.complete(ticket, 200, 'sse', JSON.stringify(events));
          else await this.idempotency.release(ticket);
          return value;
        }
        const status = reply.statusCode;
        if (status >= 200 && status < 300) await this.idempotency.complete(ticket, status, 'json', JSON.stringify(value ?? null));
        else await this.idempotency.release(ticket);
        return value;
      })(),
    );
  }
}
