import { AppError, type ErrorDetail } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { errorEnvelope, type ErrorEnvelope } from '../../common/errors/error-envelope.js';
import type { SendMessageResponseDto } from '../messaging/dto/message-response.dto.js';
import type { TurnStreamEvent } from '../messaging/turn.types.js';
import type { CardDto, StepProgress } from '../runtime/runtime.types.js';

/**
 * The events of one streamed turn (docs/streaming.md), in order: `thread` → `step`* (agent mode, docs/agents.md) →
 * `delta`* → `card`* → `message` → `suggestions` → `done`; or `error` (then nothing) once the stream has begun. WebSocket frames carry the same
 * payloads with `type` and the client's request `id` at the top level.
 */
export type StreamEvent =
  | { event: 'thread'; data: { thread_id: string; interaction_id: string } }
  | { event: 'step'; data: { thread_id: string; interaction_id: string; step: StepProgress } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'card'; data: { card: CardDto } }
  | { event: 'message'; data: SendMessageResponseDto }
  | { event: 'suggestions'; data: { thread_id: string; interaction_id: string; followup_suggestions: string[] } }
  | { event: 'done'; data: Record<string, never> }
  | { event: 'error'; data: ErrorEnvelope };

export type StreamEventName = StreamEvent['event'];

/** The last events of a stream: nothing follows them. */
export const isTerminal = (event: string): boolean => event === 'done' || event === 'error';

/** `message` → `suggestions` → `done`: what follows the engine's events once the turn is saved. */
export function closingEvents(outcome: SendMessageResponseDto): StreamEvent[] {
  const { thread_id, interaction_id } = outcome;
  return [
    { event: 'message', data: outcome },
    { event: 'suggestions', data: { thread_id, interaction_id, followup_suggestions: outcome.message.followup_suggestions ?? [] } },
    { event: 'done', data: {} },
  ];
}

/** The HTTP error envelope's fields for any failure (unexpected ones become a 500 `internal_error`, no internals). */
export function errorParts(error: unknown): { status: number; code: string; message: string; details?: ErrorDetail[] } {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, details: error.details };
  return { status: 500, code: ErrorCode.InternalError, message: 'An unexpected error occurred; quote the request id to support' };
}

export function errorEvent(error: unknown, requestId: string): StreamEvent {
  const { code, message, details } = errorParts(error);
  return { event: 'error', data: errorEnvelope(code, message, requestId, details) };
}

/** The stream event (SSE event or WebSocket frame) of one of the engine's events during a turn. */
export function toStreamEvent(event: TurnStreamEvent): StreamEvent {
  switch (event.type) {
    case 'thread':
      return { event: 'thread', data: { thread_id: event.thread_id, interaction_id: event.interaction_id } };
    case 'step':
      return { event: 'step', data: { thread_id: event.thread_id, interaction_id: event.interaction_id, step: event.step } };
    case 'delta':
      return { event: 'delta', data: { text: event.text } };
    case 'card':
      return { event: 'card', data: { card: event.card } };
  }
}
