import type { StepProgress, TurnEvent, TurnSurface } from '../runtime/runtime.types.js';

/** Who is talking to which agent: the messaging principal, the events webhook's key or a channel. */
export interface TurnCaller {
  organizationId: string;
  agentId: string;
}

/**
 * Where a turn comes from. Every surface enters the pipeline with one: the messaging API (JSON, SSE, WebSocket), a
 * rerun, an events-webhook event, or a channel message (which reaches the pipeline through the events queue, for its
 * durability and per-conversation order, on a thread that records its channel).
 */
export type TurnOrigin =
  | { kind: 'api'; surface: 'json' | 'sse' | 'ws' | 'mcp' }
  | { kind: 'rerun' }
  | { kind: 'event'; eventId: string; retried: boolean; externalThreadId: string | null }
  | { kind: 'channel'; eventId: string; retried: boolean; channel: string; externalThreadId: string };

/** One end-user turn, whatever the surface. A rerun's text, image and variables are the thread's last end-user turn's. */
export interface TurnRequest {
  origin: TurnOrigin;
  text?: string;
  /** The end user (a rerun's is the thread's). */
  userId?: string;
  threadId?: string;
  imageUrl?: string;
  agentVariables?: Record<string, unknown>;
  runtimeVersion?: string;
  includeTrace?: boolean;
}

/**
 * What a streaming surface is told while the turn runs; the final message comes from the returned outcome. `thread`
 * also says which runtime answers (the WebSocket sends deltas of v1 agents only); agent mode's `step` events carry the
 * thread and interaction ids (DESIGN.md "Agent mode").
 */
export type TurnStreamEvent =
  | { type: 'thread'; thread_id: string; interaction_id: string; runtime: 'v1' | 'v2' }
  | { type: 'step'; thread_id: string; interaction_id: string; step: StepProgress }
  | Exclude<TurnEvent, { type: 'result' } | { type: 'step' }>;

/** The transport a turn came by, for metrics and the trace's surface attribute. */
export function originSurface(origin: TurnOrigin): TurnSurface {
  switch (origin.kind) {
    case 'api':
      return origin.surface;
    case 'rerun':
      return 'json';
    case 'event':
      return 'events';
    case 'channel':
      return 'channels';
  }
}

/**
 * The events-webhook event a turn answers (written with the turn: at most one turn per event), and whether an earlier
 * attempt of it may have written that turn already.
 */
export function originEvent(origin: TurnOrigin): { eventId: string; retried: boolean } | null {
  return origin.kind === 'event' || origin.kind === 'channel' ? { eventId: origin.eventId, retried: origin.retried } : null;
}
