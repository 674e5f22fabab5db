import { Injectable, Optional } from '@nestjs/common';
import type { Attributes } from '@opentelemetry/api';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config.js';
import { AppError, ValidationError } from '../../common/errors/app-error.js';
import type { TurnPlan } from './engines/plan.js';
import { CatalogPostings } from './engines/v1/catalog-postings.js';
import { prepareV1 } from './engines/v1/prepare.js';
import { planV1, planV1WithHttp, V1_BUILD, type HttpToolCaller } from './engines/v1-engine.js';
import { HttpToolsService } from './http-tools/http-tools.service.js';
import { planV2, prepareV2, resolveV2Build, V2_BUILDS, type V2Build } from './engines/v2-engine.js';
import { questionWords } from './knowledge/analyzer.js';
import { AnthropicProvider } from './providers/anthropic.provider.js';
import type { ChatMessage, CompletionRequest, LlmProvider } from './providers/llm-provider.js';
import { OpenAIProvider } from './providers/openai.provider.js';
import { EngineInputError } from './runtime.errors.js';
import type { PreparedAgent, Revision } from './prepared-agent.js';
import type { EngineTurn, PinnedTurnInput, StepProgress, TokenUsage, TurnEvent, TurnInput, TurnResult } from './runtime.types.js';
import { contentTerms, tokenPieces } from './text/terms.js';
import { countTextTokens } from './text/token-counter.js';
import { tracingEnabled, withSpan, withStreamSpan } from '../../telemetry/tracing.js';
import { embeddableRevision, PassageEmbeddingsService } from './embeddings/passage-embeddings.service.js';
import type { DenseRanking } from './knowledge/dense-index.js';
import type { TraceModel, V2Trace } from './trace.types.js';
import { runAgentTurn, type AgentLoopDeps } from './agent/agent-loop.js';
import { prepareAgentTools, withMcpTools } from './agent/agent-tools.js';
import { McpToolboxes, type McpTools } from './agent/mcp-tools.js';

/** The wording of a turn: its text, who wrote it, the usage the provider reported (if any), the model request. */
interface Reply {
  text: string;
  writer: 'builtin' | LlmProvider['name'];
  usage: TokenUsage | null;
  request?: CompletionRequest;
}

/**
 * Runs engine work (planning, tracing). Engines are deterministic, so an error here would recur for this input:
 * it becomes EngineInputError (permanent, never retried). Our own typed errors (e.g. runtime_version) pass.
 */
function engineStep<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new EngineInputError(error);
  }
}

/** Turns of history sent to a model provider (the newest ones). */
const HISTORY_TURNS = 20;
const PREPARED_CACHE_SIZE = 256;

/**
 * The agent runtime: prepares revisions once (cached by digest) and answers turns with the v1 decisioning
 * engine or the v2 grounded engine; the bundle's `model.provider` writes the wording (builtin: the engine's
 * own deterministic reply; openai/anthropic: a model writes it from the engine's material).
 */
@Injectable()
export class RuntimeService {
  private readonly prepared = new LRUCache<string, PreparedAgent>({ max: PREPARED_CACHE_SIZE });
  private readonly providers: { openai: LlmProvider; anthropic: LlmProvider };
  constructor(
    private readonly config: AppConfig,
    /** Dense retrieval for bundles that name an embeddings model (absent in engine-only unit tests). */
    @Optional() private readonly embeddings?: PassageEmbeddingsService,
    /** HTTP tool calls (absent in engine-only unit tests: such tools then answer their fallback). */
    @Optional() private readonly httpTools?: HttpToolsService,
    /** Agent mode's MCP tools (the MCP module binds it; absent: no MCP tools are offered). */
    @Optional() private readonly mcp?: McpToolboxes,
  ) {
    this.providers = {
      openai: new OpenAIProvider(config.providers.openai, config.providers.timeoutMs),
      anthropic: new AnthropicProvider(config.providers.anthropic, config.providers.timeoutMs),
    };
  }

  /** Builds indexes and matchers once per revision; the same digest returns the cached agent. */
  prepare(revision: Revision): PreparedAgent {
    const key = `${revision.runtime}:${revision.digest}`;
    const cached = this.prepared.get(key);
    if (cached) return cached;
    const bundle = revision.bundle ?? {};
    const identity = identityOf(bundle);
    const agent: PreparedAgent = {
      digest: revision.digest,
      runtime: revision.runtime,
      bundle,
      provider: bundle.model?.provider ?? 'builtin',
      identity,
      identityTokens: countTextTokens(identity),
      tokenMemo: new Map(),
      ...(revision.runtime === 'v2' ? { v2: prepareV2(bundle) } : { v1: prepareV1(bundle) }),
    };
    // Agent mode: the tools' names, descriptions and schemas, once per revision.
    if (bundle.model?.mode === 'agent' && agent.provider !== 'builtin') {
      agent.tools = prepareAgentTools(bundle, agent.v1, agent.v2);
    }
    this.prepared.set(key, agent);
    return agent;
  }

  /** Whether a `runtime_version` pin names a build of this runtime (undefined = the default build). */
  supportsRuntimeBuild(runtime: 'v1' | 'v2', build: string | undefined): boolean {
    if (runtime === 'v1') return build === undefined || /^1(\.0){0,2}$/.test(build);
    return resolveV2Build(build) !== null;
  }

  /** Builds this service can run, for docs and error messages. */
  runtimeBuilds(): { v1: string[]; v2: string[] } {
    return { v1: [V1_BUILD], v2: [...V2_BUILDS] };
  }

  /**
   * The turn's one entry point: resolves the engine build that answers it (a v2 `runtime_version` pin is
   * validated here and nowhere else: unknown → 422 `runtime_version`; v1 agents ignore pins) and binds it
   * to the prepared revision. Callers begin before any other work of the turn, so a bad pin fails first.
   */
  begin(agent: PreparedAgent, runtimeVersion?: string): EngineTurn {
    const v2Build = agent.runtime === 'v2' ? pinnedV2Build(runtimeVersion) : null;
    if (agent.tools) return this.beginAgent(agent, v2Build ?? V1_BUILD);
    return {
      runtime: agent.runtime,
      build: v2Build ?? V1_BUILD,
      welcomeMessage: this.welcome(agent).welcome_message,
      run: (input) =>
        withSpan('turn', () => this.runTurn(agent, v2Build, input), tracingEnabled() ? turnAttributes(agent, input) : undefined),
      stream: (input) =>
        withStreamSpan('turn', () => this.streamTurn(agent, v2Build, input), tracingEnabled() ? turnAttributes(agent, input) : undefined),
    };
  }

  /** Agent mode (docs/agents.md): the model runs the loop; step events come before the reply's deltas and cards. */
  private beginAgent(agent: PreparedAgent, build: string): EngineTurn {
    const http = this.httpTools;
    const provider = agent.provider === 'anthropic' ? this.providers.anthropic : this.providers.openai;
    const deps = async (input: TurnInput): Promise<AgentLoopDeps> => ({
      provider,
      tools: withMcpTools(agent.tools!, await this.mcpTools(agent, input)),
      io: { http: http ? (agentId, tool, request) => http.call(agentId, tool, request) : undefined },
      turnTimeoutMs: this.config.agent.turnTimeoutMs,
    });
    const attributes = (input: TurnInput) => (tracingEnabled() ? turnAttributes(agent, input) : undefined);
    return {
      runtime: agent.runtime,
      build,
      welcomeMessage: this.welcome(agent).welcome_message,
      run: (input) =>
        withSpan('turn', async () => runAgentTurn(agent, build, input, await deps(input), { stream: false }), attributes(input)),
      stream: (input) => withStreamSpan('turn', () => streamAgentTurn(agent, build, input, deps(input)), attributes(input)),
    };
  }

  /** The revision's pinned MCP tools, when its bundle names MCP servers and the turn says which revision answers. */
  private async mcpTools(agent: PreparedAgent, input: TurnInput): Promise<McpTools | undefined> {
    if (!this.mcp || !input.agentId || !input.revisionId || !Object.hasOwn(agent.bundle, 'mcp_servers')) return undefined;
    return this.mcp.toolbox({ agentId: input.agentId, revisionId: input.revisionId, bundle: agent.bundle });
  }

  /** Begins and answers in one call (the pin travels with the input); a bad pin is a rejection, not a throw. */
  async run(agent: PreparedAgent, input: PinnedTurnInput): Promise<TurnResult> {
    return this.begin(agent, input.runtimeVersion).run(input);
  }

  /** Begins and streams in one call; a bad pin fails the stream before its first event. */
  async *stream(agent: PreparedAgent, input: PinnedTurnInput): AsyncIterable<TurnEvent> {
    yield* this.begin(agent, input.runtimeVersion).stream(input);
  }

  private async runTurn(agent: PreparedAgent, v2Build: V2Build | null, input: TurnInput): Promise<TurnResult> {
    const plan = agent.v1?.httpTools.length
      ? await this.planWithHttp(agent, input)
      : this.plan(agent, v2Build, input, await this.denseRanking(agent, input));
    const provider = this.providerFor(agent, plan);
    if (!provider) return this.result(agent, plan, input, { text: plan.draft, writer: 'builtin', usage: null });
    const request = this.request(agent, plan, input);
    const { text, usage } = await withSpan('provider.call', () => provider.complete(request), providerAttributes(provider, request));
    const wrote = text.trim() !== '';
    return this.result(agent, plan, input, { text: wrote ? text : plan.draft, writer: wrote ? provider.name : 'builtin', usage, request });
  }

  private async *streamTurn(agent: PreparedAgent, v2Build: V2Build | null, input: TurnInput): AsyncIterable<TurnEvent> {
    const plan = agent.v1?.httpTools.length
      ? await this.planWithHttp(agent, input)
      : this.plan(agent, v2Build, input, await this.denseRanking(agent, input));
    const provider = this.providerFor(agent, plan);
    let text = '';
    let usage: TokenUsage | null = null;
    let request: CompletionRequest | undefined;
    if (provider) {
      request = this.request(agent, plan, input);
      for await (const chunk of withStreamSpan(
        'provider.call',
        provider.stream.bind(provider, request),
        providerAttributes(provider, request),
      )) {
        if (chunk.type === 'delta') {
          text += chunk.text;
          yield { type: 'delta', text: chunk.text };
        } else usage = chunk.usage;
      }
    }
    const wrote = text !== '';
    if (!wrote) {
      // builtin (or a provider that wrote nothing, whose usage still counts): the engine's reply in token-sized pieces
      text = plan.draft;
      for (const piece of tokenPieces(text)) yield { type: 'delta', text: piece };
    }
    for (const card of plan.cards) yield { type: 'card', card };
    yield {
      type: 'result',
      result: this.result(agent, plan, input, { text, writer: wrote && provider ? provider.name : 'builtin', usage, request }),
    };
  }

  welcome(agent: PreparedAgent): { welcome_message: string; followup_suggestions: string[] } {
    const b = agent.bundle;
    const name = b.name?.trim();
    return {
      welcome_message: b.welcome_message ?? `Hi! I'm ${name || 'your assistant'}. How can I help you today?`,
      followup_suggestions: [...(b.welcome_suggestions?.length ? b.welcome_suggestions : (b.followups?.default ?? []))],
    };
  }

  /**
   * Suggested next prompts for a context: the recognised intent's follow-ups, then prompts about the content
   * that matches the context (catalog items or knowledge documents), then the defaults; without duplicates
   * and never repeating the context itself.
   */
  suggest(agent: PreparedAgent, context: { text?: string; history?: TurnInput['history'] }, limit: number): string[] {
    const max = Math.max(0, Math.min(Math.floor(limit) || 0, 10));
    const lastUser = [...(context.history ?? [])].reverse().find((h) => h.role === 'user')?.text;
    const text = context.text?.trim() || lastUser || '';
    const b = agent.bundle;
    const out: string[] = [];
    const seen = new Set<string>([text.toLowerCase()]);
    const add = (s: string | undefined) => {
      if (!s || out.length >= max) return;
      const k = s.trim().toLowerCase();
      if (!k || seen.has(k)) return;
      seen.add(k);
      out.push(s.trim());
    };
    const classifier = agent.v1?.intents ?? agent.v2?.intents;
    const intent = text && classifier ? (classifier.classify(text)[0]?.name ?? null) : null;
    if (intent) for (const s of b.followups?.intents?.[intent] ?? []) add(s);
    const query = contentTerms(text)
      .map((t) => t.word)
      .join(' ');
    if (query) {
      if (agent.v2) {
        for (const h of agent.v2.retriever.search(questionWords(query)).passages.slice(0, 6)) {
          const p = agent.v2.passages[h.index];
          if (p) add(`Tell me more about ${p.title}`);
        }
      } else if (agent.v1) {
        for (const tool of agent.v1.tools) {
          for (const doc of tool.postings.best(CatalogPostings.terms(query), 3)) {
            const title = tool.records[doc]?.[tool.def.title_field];
            if (typeof title === 'string') add(`Show me more like ${title}`);
          }
        }
      }
    }
    for (const s of b.followups?.default ?? []) add(s);
    if (!text) for (const s of b.welcome_suggestions ?? []) add(s);
    return out;
  }

  /**
   * What the grounded engine would answer a question from, without answering it (the console's "try a question",
   * docs/knowledge.md): the same retrieval as a turn of the default v2 build (lexical, fused with the embeddings
   * ranking when the bundle names a model) and its decision to answer or decline. No model writes anything and
   * nothing is recorded.
   */
  async retrieval(agent: PreparedAgent, question: string): Promise<V2Trace> {
    const input: TurnInput = { text: question, agentVariables: {}, history: [] };
    const plan = this.plan(agent, pinnedV2Build(undefined), input, await this.denseRanking(agent, input));
    return engineStep(() => plan.finish(plan.draft, 'builtin')) as V2Trace;
  }

  // -------------------------------------------------------------------------------------------------------

  /** The question's dense ranking when the bundle names an embeddings model (never throws: a failure is a `failed` ranking). */
  private async denseRanking(agent: PreparedAgent, input: TurnInput): Promise<DenseRanking | undefined> {
    const revision = this.embeddings && input.text?.trim() ? embeddableRevision(agent) : null;
    return revision ? this.embeddings!.rank(revision, input.text!.trim()) : undefined;
  }

  private plan(agent: PreparedAgent, v2Build: V2Build | null, input: TurnInput, dense?: DenseRanking): TurnPlan {
    if (v2Build) return engineStep(() => planV2(agent.bundle, agent.v2 ?? prepareV2(agent.bundle), input, v2Build, dense));
    return engineStep(() => planV1(agent.bundle, agent.v1 ?? prepareV1(agent.bundle), input));
  }

  /** A v1 turn of a bundle with HTTP tools: the calls are awaited (each bounded by its timeout, never rejecting). */
  private async planWithHttp(agent: PreparedAgent, input: TurnInput): Promise<TurnPlan> {
    const tools = this.httpTools;
    const call: HttpToolCaller = tools
      ? (tool, request) => tools.call(input.agentId, tool, request)
      : () =>
          Promise.resolve({ ok: false, reason: 'unavailable', detail: 'HTTP tools are not available here', status: null, latencyMs: null });
    try {
      return await withSpan('engine.http_tools', () => planV1WithHttp(agent.bundle, agent.v1!, input, call));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new EngineInputError(error);
    }
  }

  private providerFor(agent: PreparedAgent, plan: TurnPlan): LlmProvider | null {
    if (plan.fixed || agent.provider === 'builtin') return null;
    return agent.provider === 'openai' ? this.providers.openai : agent.provider === 'anthropic' ? this.providers.anthropic : null;
  }

  private request(agent: PreparedAgent, plan: TurnPlan, input: TurnInput): CompletionRequest {
    const messages: ChatMessage[] = (input.history ?? [])
      .slice(-HISTORY_TURNS)
      .filter((h) => h.text)
      .map((h) => ({ role: h.role === 'agent' ? 'assistant' : 'user', content: h.text }));
    messages.push({
      role: 'user',
      content: input.text?.trim()
        ? input.text
        : input.imageUrl
          ? ''
          : '(no message text: answer from the facts, which include the agent variables)',
    });
    const model = agent.bundle.model;
    return {
      model: model?.name,
      system: input.imageUrl
        ? `${systemPrompt(agent, plan)}\n\nThe user attached an image (in their last message). Use it to understand what they want; the draft was written without seeing it, and you may still state only what the material supports.`
        : systemPrompt(agent, plan),
      messages,
      imageUrl: input.imageUrl,
      temperature: model?.temperature,
      maxOutputTokens: model?.max_output_tokens,
    };
  }

  /**
   * The turn's result. Usage is what the provider reported whenever it reported any (even when it wrote no text
   * and the engine's draft was used: the call was still billed); otherwise the tokenizer counts the turn.
   */
  private result(agent: PreparedAgent, plan: TurnPlan, input: TurnInput, reply: Reply): TurnResult {
    const { text, writer, request } = reply;
    const usage = reply.usage ?? this.countUsage(agent, plan, input, text, request);
    return {
      text,
      cards: plan.cards,
      followupSuggestions: plan.followups,
      trace: engineStep(() => ({ ...plan.finish(text, writer), model: this.modelOf(agent, writer) })),
      usage,
      facets: plan.facets,
      intent: plan.intent,
      runtime: plan.runtime,
      runtimeBuild: plan.build,
    };
  }

  /** Who was asked to write and who did (trace `model`, docs/engines.md). */
  private modelOf(agent: PreparedAgent, writer: Reply['writer']): TraceModel {
    const provider = agent.provider === 'builtin' ? null : this.providers[agent.provider];
    const name = agent.bundle.model?.name ?? provider?.defaultModel ?? null;
    return { provider: agent.provider, name, endpoint: provider?.endpoint.url ?? null, writer };
  }

  /** BPE counts when no provider reported usage: the material the engine read, the history, the message, the reply. */
  private countUsage(agent: PreparedAgent, plan: TurnPlan, input: TurnInput, text: string, request?: CompletionRequest): TokenUsage {
    let inputTokens = request ? countTextTokens(request.system) : agent.identityTokens + materialTokens(agent, plan);
    for (const h of (input.history ?? []).slice(-HISTORY_TURNS)) inputTokens += countTextTokens(h.text);
    inputTokens += countTextTokens(input.text);
    return { input_tokens: inputTokens, output_tokens: countTextTokens(text), cache_read_tokens: 0, reasoning_tokens: 0 };
  }
}

/**
 * An agent turn as stream events: each tool call's `step` events as they happen, then the checked reply in
 * token-sized deltas (the reply is streamed once the engine's checks have passed it), its cards, the result.
 */
async function* streamAgentTurn(
  agent: PreparedAgent,
  build: string,
  input: TurnInput,
  deps: Promise<AgentLoopDeps>,
): AsyncIterable<TurnEvent> {
  // The loop reports steps from concurrent calls; they queue here until the generator's reader takes them.
  const state: { steps: StepProgress[]; wake?: () => void; outcome?: { result: TurnResult } | { error: unknown } } = { steps: [] };
  void runAgentTurn(agent, build, input, await deps, {
    stream: true,
    onStep: (step) => {
      state.steps.push(step);
      state.wake?.();
    },
  })
    .then(
      (result) => {
        state.outcome = { result };
      },
      (error: unknown) => {
        state.outcome = { error };
      },
    )
    .finally(() => state.wake?.());
  for (;;) {
    const step = state.steps.shift();
    if (step) {
      yield { type: 'step', step };
      continue;
    }
    if (state.outcome) break;
    await new Promise<void>((resolve) => (state.wake = resolve));
    state.wake = undefined;
  }
  const outcome = state.outcome!; // the loop above ends only once it is set
  if ('error' in outcome) throw outcome.error;
  const { result } = outcome;
  for (const piece of tokenPieces(result.text)) yield { type: 'delta', text: piece };
  for (const card of result.cards) yield { type: 'card', card };
  yield { type: 'result', result };
}

/** The v2 build a `runtime_version` pin names (the latest when absent); 422 `runtime_version` when none does. */
function pinnedV2Build(pin: string | undefined): V2Build {
  const build = resolveV2Build(pin);
  if (!build) {
    throw ValidationError.field(
      'runtime_version',
      `Unknown runtime_version "${pin}"; supported builds: 2, ${V2_BUILDS.map((b) => `${b.slice(0, 3)}, ${b}`).join(', ')}`,
    );
  }
  return build;
}

/** Span attributes of a turn (contract: docs/performance.md); no tenant, agent or thread id. */
function turnAttributes(agent: PreparedAgent, input: TurnInput): Attributes {
  return { 'agent.surface': input.surface ?? 'unknown', 'agent.runtime': agent.runtime, 'agent.provider': agent.provider };
}

function providerAttributes(provider: LlmProvider, request: CompletionRequest): Attributes | undefined {
  if (!tracingEnabled()) return undefined;
  return request.model ? { 'gen_ai.system': provider.name, 'gen_ai.request.model': request.model } : { 'gen_ai.system': provider.name };
}

function identityOf(bundle: PreparedAgent['bundle']): string {
  const name = bundle.name?.trim() || 'an assistant';
  return `You are ${name}.${bundle.persona ? ` ${bundle.persona.trim()}` : ''}`;
}

/**
 * Tokens of the material section, counted part by part: the instructions and each source are counted once
 * per revision and memoised, so a turn only tokenizes its facts and draft. (The sum of the parts' counts is
 * within a few tokens of the joined text's count.)
 */
function materialTokens(agent: PreparedAgent, plan: TurnPlan): number {
  const memo = agent.tokenMemo;
  const cached = (key: string, text: string): number => {
    let n = memo.get(key);
    if (n === undefined) {
      n = countTextTokens(text);
      if (memo.size < 50_000) memo.set(key, n);
    }
    return n;
  };
  let total =
    cached(`instructions:${plan.runtime}:${plan.instructions.length}`, plan.instructions) +
    cached('headings', '## Facts\n## Sources\n## Draft reply\n');
  for (const s of plan.sources) total += cached(`source:${s.key}`, `[${s.marker}] ${s.label} — ${s.text}`);
  if (plan.facts.length) total += countTextTokens(plan.facts.join('\n'));
  return total + countTextTokens(plan.draft);
}

function materialSection(plan: TurnPlan): string {
  const parts: string[] = [plan.instructions];
  if (plan.facts.length) parts.push(`## Facts\n${plan.facts.map((f) => `- ${f}`).join('\n')}`);
  if (plan.sources.length) parts.push(`## Sources\n${plan.sources.map((s) => `[${s.marker}] ${s.label} — ${s.text}`).join('\n')}`);
  parts.push(`## Draft reply\n${plan.draft}`);
  return parts.join('\n\n');
}

/**
 * The model's system prompt: identity and persona, the engine's instructions, the facts it computed, the
 * numbered sources it retrieved, and its own draft (which the model may rephrase but not go beyond).
 */
export function systemPrompt(agent: PreparedAgent, plan: TurnPlan): string {
  return `${agent.identity}\n\n${materialSection(plan)}\n\nRewrite the draft reply in your own words if it helps the user; keep every fact${plan.runtime === 'v2' ? ' and its [n] marker' : ''}, and add nothing that the material does not support.`;
}
