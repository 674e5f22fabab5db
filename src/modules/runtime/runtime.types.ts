import type { Trace } from './trace.types.js';

/** One end-user turn, as the messaging, streaming and events layers hand it to the runtime. */
export interface TurnInput {
  /** May be absent when `image_url` or `agent_variables` alone make the turn. */
  text?: string;
  imageUrl?: string;
  /** `{static, dynamic}` (messaging) or free-form key/values (events webhook: treated as dynamic). */
  agentVariables: { static?: Record<string, unknown>; dynamic?: Record<string, unknown> } | Record<string, unknown>;
  /** Earlier turns of the thread, oldest first (may be empty). */
  history: Array<{ role: 'user' | 'agent'; text: string }>;
  /** The transport the turn came by (a trace attribute); absent when the caller does not say. */
  surface?: TurnSurface;
  /** The agent answering: signs its HTTP tool calls (docs/http-tools.md) and fills their secrets; absent = unsigned. */
  agentId?: string;
  /** The revision answering: whose MCP tools were pinned at push (docs/mcp.md); absent = no MCP tools. */
  revisionId?: string;
}

/** A turn with its build pin, for the one-call `RuntimeService.run`/`stream` (a turn that began has its build). */
export interface PinnedTurnInput extends TurnInput {
  /** v2 build pin; unknown → 422 on `runtime_version`. v1 agents ignore it. */
  runtimeVersion?: string;
}

/** The transports a turn can come by (a metrics label and a trace attribute). */
export type TurnSurface = 'json' | 'sse' | 'ws' | 'events' | 'channels' | 'mcp';

export interface CardDto {
  rendered_jsx: string;
  is_recommended: boolean;
  index: number;
  json_data: {
    entity: Record<string, unknown>;
    sub_entities: Array<{ name: string; items: Array<Record<string, unknown>> }>;
  };
  capability?: string;
  instance?: string;
  title?: string;
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
}

/** What the thread-listing filters query: tools activated, rules with outcome, parameters computed. */
export interface TurnFacets {
  tools: string[];
  rules: Array<{ code: string; outcome: 'fired' | 'blocked' | 'passed' }>;
  params: Record<string, string | number | boolean>;
}

export interface TurnResult {
  text: string;
  cards: CardDto[];
  followupSuggestions: string[];
  /** The v1 or v2 trace (spec "Trace"), always carrying `runtime`. */
  trace: Trace;
  usage: TokenUsage;
  facets: TurnFacets;
  intent: string | null;
  runtime: 'v1' | 'v2';
  /** The engine build that answered, e.g. `1.0.0` or `2.1.0`. */
  runtimeBuild: string;
}

/** Agent mode: a tool call as it starts and ends (`step` stream events, docs/agents.md). */
export interface StepProgress {
  /** `s<n>`: the n-th call of the turn (the trace's `track_id` / `steps[].id`). */
  id: string;
  tool: string;
  status: 'started' | 'completed' | 'failed' | 'refused';
  /** When it ended. */
  duration_ms?: number;
}

export type TurnEvent =
  | { type: 'step'; step: StepProgress }
  | { type: 'delta'; text: string }
  | { type: 'card'; card: CardDto }
  | { type: 'result'; result: TurnResult };

/** One turn's engine, from `RuntimeService.begin`: the revision and the build that answers, resolved once. */
export interface EngineTurn {
  runtime: 'v1' | 'v2';
  /** The engine build that answers, e.g. `1.0.0` or `2.1.0`. */
  build: string;
  /** The live version's greeting, sent with every reply. */
  welcomeMessage: string;
  run(input: TurnInput): Promise<TurnResult>;
  /** Deltas and cards as they come, then exactly one `result`. */
  stream(input: TurnInput): AsyncIterable<TurnEvent>;
}
