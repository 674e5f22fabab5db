import { checkGuardrails, type CompiledGuardrail, type GuardrailVerdict } from '../engines/guardrails.js';
import { evaluateRule, type RuleEval } from '../engines/v1/rules.js';
import { flattenVariables } from '../engines/variables.js';
import type { PreparedAgent } from '../prepared-agent.js';
import type {
  AgentExchange,
  AgentModelRequest,
  AgentModelResponse,
  ChatMessage,
  LlmProvider,
  ToolCallRequest,
} from '../providers/llm-provider.js';
import type { StepProgress, TokenUsage, TurnInput, TurnResult } from '../runtime.types.js';
import { countTextTokens } from '../text/token-counter.js';
import type { AgentRun, AgentStep, ParamValue } from '../trace.types.js';
import { AgentTurnFindings, type AgentToolbox, type ToolIo, type ToolOutcome } from './agent-tools.js';
import { agentResult, type AgentTurnOutcome, type ExecutedStep } from './agent-result.js';

/*
 * Agent mode's loop (docs/agents.md, DESIGN.md "Agent mode: the model decides"): the model sees the persona, the
 * thread and the tools; the engine runs the calls it asks for (several at once, bounded), hands back their results
 * (bounded; errors are results), and repeats up to `max_steps` model calls, within the turn's deadline and token
 * budget. Guardrails run on the message before the model sees it and on the final reply; rules run on every call's
 * arguments. agent-result.ts turns what happened into the reply, cards, trace and usage.
 */

export const DEFAULT_MAX_STEPS = 6;
export const DEFAULT_MAX_TURN_TOKENS = 50_000;
/** Calls one model answer may ask for; more are refused (the model is told to ask fewer at once). */
export const MAX_CALLS_PER_STEP = 8;
/** Calls run at the same time. */
export const MAX_PARALLEL_CALLS = 4;
/** Longest arguments text accepted (larger ones are refused unparsed). */
export const MAX_ARGUMENT_CHARS = 16_384;
/** Longest tool result handed back to the model. */
export const MAX_RESULT_CHARS = 8_000;
/** Turns of history sent to the model (the newest ones). */
const HISTORY_TURNS = 20;
/** Extra time a tool gets past its own deadline before the loop gives up on it (its own timeout reports better). */
const DEADLINE_GRACE_MS = 500;

/** What the loop needs from the runtime: the provider, the turn's tools (the revision's and its MCP tools), their I/O, the deadline. */
export interface AgentLoopDeps {
  provider: LlmProvider;
  tools: AgentToolbox;
  io: ToolIo;
  turnTimeoutMs: number;
}

/** One agent-mode turn. `onStep` hears each call start and end (the `step` stream events). */
export async function runAgentTurn(
  agent: PreparedAgent,
  build: string,
  input: TurnInput,
  deps: AgentLoopDeps,
  options: { stream: boolean; onStep?: (step: StepProgress) => void },
): Promise<TurnResult> {
  const loop = new AgentLoop(agent, input, deps, options.stream, options.onStep);
  return agentResult(agent, build, input, await loop.run());
}

class AgentLoop {
  private readonly toolbox: AgentToolbox;
  private readonly guardrails: CompiledGuardrail[];
  private readonly maxSteps: number;
  private readonly maxTurnTokens: number;
  private readonly findings = new AgentTurnFindings();
  private readonly steps: ExecutedStep[] = [];
  /** Calls already made this turn (name + canonical arguments): the same call again is refused. */
  private readonly seen = new Set<string>();
  /** The agent variables as parameters: what rules see beside a call's arguments. */
  private readonly variables: Map<string, ParamValue>;
  private readonly usage: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
  private modelCalls = 0;
  /** Epoch milliseconds the turn ends at (MCP calls are told). */
  private endsAt = 0;

  constructor(
    private readonly agent: PreparedAgent,
    private readonly input: TurnInput,
    private readonly deps: AgentLoopDeps,
    private readonly stream: boolean,
    private readonly onStep?: (step: StepProgress) => void,
  ) {
    this.toolbox = deps.tools;
    this.guardrails = agent.v1?.guardrails ?? agent.v2?.guardrails ?? [];
    const model = agent.bundle.model;
    this.maxSteps = model?.max_steps ?? DEFAULT_MAX_STEPS;
    this.maxTurnTokens = model?.max_turn_tokens ?? DEFAULT_MAX_TURN_TOKENS;
    const vars = flattenVariables(input.agentVariables);
    this.variables = new Map([...vars.static, ...vars.dynamic]);
  }

  async run(): Promise<AgentTurnOutcome> {
    const message = this.input.text ?? '';
    const guard = checkGuardrails(this.guardrails, message);
    if (!guard.passed) return this.outcome(guard, null, 'guardrail', `the message matched ${guard.reason}`);

    const deadline = new AbortController();
    this.endsAt = Date.now() + this.deps.turnTimeoutMs;
    const timer = setTimeout(() => deadline.abort(new Error('turn deadline')), this.deps.turnTimeoutMs);
    timer.unref?.();
    try {
      const base = this.request();
      const exchange: AgentExchange[] = [];
      for (let call = 1; ; call += 1) {
        if (this.tokensUsed() >= this.maxTurnTokens) {
          return this.outcome(
            guard,
            null,
            'token_budget',
            `${this.tokensUsed()} of ${this.maxTurnTokens} tokens used after ${call - 1} model call(s)`,
          );
        }
        const request: AgentModelRequest = {
          ...base,
          maxOutputTokens: this.outputAllowance(base.maxOutputTokens),
          exchange,
          tools: this.toolbox.specs,
          stream: this.stream,
          signal: deadline.signal,
        };
        let response: AgentModelResponse;
        try {
          response = await this.deps.provider.converse(request);
        } catch (error) {
          if (deadline.signal.aborted) {
            return this.outcome(guard, null, 'turn_deadline', `the turn's ${this.deps.turnTimeoutMs} ms ran out during model call ${call}`);
          }
          throw error;
        }
        this.modelCalls += 1;
        this.count(response.usage, request, response.text, response.toolCalls);
        if (!response.toolCalls.length) {
          if (!response.text.trim()) return this.outcome(guard, null, 'no_reply', `model call ${call} wrote no reply and called no tool`);
          return this.outcome(guard, response.text, 'answered', `answered after ${call} model call(s)`);
        }
        if (call >= this.maxSteps) {
          return this.outcome(
            guard,
            null,
            'max_steps',
            `model call ${call} of ${this.maxSteps} asked for ${response.toolCalls.length} more tool call(s)`,
          );
        }
        if (this.tokensUsed() >= this.maxTurnTokens) {
          return this.outcome(
            guard,
            null,
            'token_budget',
            `${this.tokensUsed()} of ${this.maxTurnTokens} tokens used after ${call} model call(s)`,
          );
        }
        const calls = distinctIds(response.toolCalls);
        const results = await this.runCalls(calls, call, deadline.signal);
        exchange.push({ role: 'assistant', text: response.text, toolCalls: calls.map(echoed) }, { role: 'tool', results });
        if (deadline.signal.aborted) {
          return this.outcome(
            guard,
            null,
            'turn_deadline',
            `the turn's ${this.deps.turnTimeoutMs} ms ran out during the tool calls of model call ${call}`,
          );
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private outcome(guard: GuardrailVerdict, text: string | null, stop: AgentTurnOutcome['stop'], detail: string): AgentTurnOutcome {
    const run: AgentRun = {
      provider: this.deps.provider.name,
      max_steps: this.maxSteps,
      model_calls: this.modelCalls,
      max_turn_tokens: this.maxTurnTokens,
      tokens_used: this.tokensUsed(),
      stop_reason: stop === 'no_reply' ? 'answered' : stop,
      detail,
    };
    return {
      text: text === null ? null : cleanText(text),
      stop,
      run,
      guard,
      guardrails: this.guardrails,
      steps: this.steps,
      findings: this.findings,
      variables: this.variables,
      usage: this.modelCalls ? { ...this.usage } : null,
    };
  }

  /** The conversation as the model sees it: identity, persona and instructions; the thread; the message. */
  private request(): Omit<AgentModelRequest, 'exchange' | 'tools' | 'stream' | 'signal'> {
    const { agent, input } = this;
    const messages: ChatMessage[] = (input.history ?? [])
      .slice(-HISTORY_TURNS)
      .filter((h) => h.text)
      .map((h) => ({ role: h.role === 'agent' ? 'assistant' : 'user', content: h.text }));
    messages.push({ role: 'user', content: input.text?.trim() ? input.text : input.imageUrl ? '' : '(no message text)' });
    const model = agent.bundle.model;
    return {
      model: model?.name,
      system: agentSystemPrompt(agent, this.variables),
      messages,
      imageUrl: input.imageUrl,
      temperature: model?.temperature,
      maxOutputTokens: model?.max_output_tokens,
    };
  }

  /** The bundle's output limit, never more than the budget has left. */
  private outputAllowance(configured: number | undefined): number | undefined {
    const left = Math.max(1, this.maxTurnTokens - this.tokensUsed());
    return configured === undefined ? (left < 4096 ? left : undefined) : Math.min(configured, left);
  }

  private tokensUsed(): number {
    const u = this.usage;
    return u.input_tokens + u.output_tokens + u.cache_read_tokens + u.reasoning_tokens;
  }

  /** Adds a model call's usage: as reported, else counted with the tokenizer (the prompt, the exchange, the answer). */
  private count(reported: TokenUsage | null, request: AgentModelRequest, text: string, calls: ToolCallRequest[]): void {
    const u = reported ?? {
      input_tokens:
        countTextTokens(request.system) +
        request.messages.reduce((n, m) => n + countTextTokens(m.content), 0) +
        countTextTokens(JSON.stringify(request.exchange)) +
        countTextTokens(JSON.stringify(request.tools)),
      output_tokens: countTextTokens(text) + calls.reduce((n, c) => n + countTextTokens(c.name) + countTextTokens(c.arguments), 0),
      cache_read_tokens: 0,
      reasoning_tokens: 0,
    };
    this.usage.input_tokens += u.input_tokens;
    this.usage.output_tokens += u.output_tokens;
    this.usage.cache_read_tokens += u.cache_read_tokens;
    this.usage.reasoning_tokens += u.reasoning_tokens;
  }

  /** The calls of one model answer, at most MAX_PARALLEL_CALLS at a time; results in the model's order. */
  private async runCalls(
    calls: ToolCallRequest[],
    modelCall: number,
    turn: AbortSignal,
  ): Promise<Array<{ callId: string; content: string; isError: boolean }>> {
    const first = this.steps.length + 1;
    const ids = calls.map((_, i) => `s${first + i}`);
    const slots: Array<ExecutedStep | undefined> = [];
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const i = next++;
        slots[i] = await this.runCall(calls[i]!, ids[i]!, modelCall, turn, i >= MAX_CALLS_PER_STEP);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_CALLS, calls.length) }, worker));
    const done = slots as ExecutedStep[];
    this.steps.push(...done);
    return done.map((s, i) => ({ callId: calls[i]!.id, content: s.result, isError: s.trace.status !== 'completed' }));
  }

  private async runCall(
    call: ToolCallRequest,
    id: string,
    modelCall: number,
    turn: AbortSignal,
    overLimit: boolean,
  ): Promise<ExecutedStep> {
    const started = performance.now();
    const name = cleanText(call.name).slice(0, 128);
    this.onStep?.({ id, tool: name, status: 'started' });
    const tool = this.toolbox.tools.get(call.name);
    const finish = (
      status: AgentStep['status'],
      outcome: ToolOutcome,
      args: Record<string, unknown> | null,
      rules: RuleEval[],
    ): ExecutedStep => {
      const duration = Math.round(performance.now() - started);
      this.onStep?.({ id, tool: name, status, duration_ms: duration });
      return {
        trace: {
          id,
          tool: name,
          parent_tool: tool?.server ?? null,
          model_call: modelCall,
          status,
          arguments: cleanText(call.arguments).slice(0, 2000),
          duration_ms: duration,
          output_title: cleanText(outcome.title).slice(0, 200),
          fail_reason: cleanText(outcome.failReason).slice(0, 500),
        },
        kind: tool?.kind ?? null,
        args,
        rules,
        result: boundedResult(outcome.content),
      };
    };
    const refuse = (reason: string, args: Record<string, unknown> | null = null, rules: RuleEval[] = []) =>
      finish('refused', { ok: false, content: { error: reason }, title: '', failReason: reason }, args, rules);

    if (overLimit) return refuse(`too many calls at once: at most ${MAX_CALLS_PER_STEP} per answer; ask for the rest after these results`);
    if (!tool) {
      return refuse(`unknown tool "${name.slice(0, 64)}"; the tools are ${[...this.toolbox.tools.keys()].join(', ') || 'none'}`);
    }
    if (call.arguments.length > MAX_ARGUMENT_CHARS) return refuse(`the arguments are over ${MAX_ARGUMENT_CHARS} characters`);
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(call.arguments.trim() || '{}');
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return refuse('the arguments must be a JSON object');
      args = parsed as Record<string, unknown>;
    } catch {
      return refuse('the arguments are not valid JSON');
    }
    const problem = tool.check(args);
    if (problem) return refuse(`invalid arguments: ${problem}`, args);
    const key = `${call.name}\u0000${canonicalJson(args) ?? call.arguments}`;
    if (this.seen.has(key)) {
      return refuse(
        'the same call with the same arguments was already made in this turn; use its result above, or change the arguments',
        args,
      );
    }
    this.seen.add(key);
    const rules = this.evaluateRules(args);
    const block = rules.find((e) => e.triggered && e.rule.action === 'block');
    if (block) return refuse(`rule ${block.rule.code} blocks this call: ${block.rule.message}`, args, rules);

    const timeout = AbortSignal.timeout(tool.timeoutMs + DEADLINE_GRACE_MS);
    const signal = AbortSignal.any([turn, timeout]);
    try {
      const context = { agentId: this.input.agentId, signal, deadline: this.endsAt, findings: this.findings, io: this.deps.io };
      const outcome = await untilAborted(tool.run(args, context), signal);
      return finish(outcome.ok ? 'completed' : 'failed', outcome, args, rules);
    } catch (error) {
      const reason = turn.aborted
        ? "the turn's time ran out before the tool answered"
        : timeout.aborted
          ? `timeout: no answer within ${tool.timeoutMs} ms`
          : `the tool failed: ${cleanText((error as Error)?.message ?? String(error)).slice(0, 200)}`;
      return finish('failed', { ok: false, content: { error: reason }, title: '', failReason: reason }, args, rules);
    }
  }

  /** v1 rules over the agent variables and the call's arguments (the arguments win). */
  private evaluateRules(args: Record<string, unknown>): RuleEval[] {
    const rules = this.agent.v1?.rules ?? [];
    if (!rules.length) return [];
    const params = new Map(this.variables);
    for (const [k, v] of Object.entries(args)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') params.set(k, v);
    }
    return rules.map((rule) => evaluateRule(rule, params));
  }
}

/** The model's system prompt in agent mode: identity and persona, how to use the tools, and the agent variables. */
export function agentSystemPrompt(agent: PreparedAgent, variables: Map<string, ParamValue>): string {
  const parts = [agent.identity];
  parts.push(
    'Answer the user. Use the tools to look things up before you answer; state only what the tools returned, and never invent ' +
      'products, prices, policies or facts. When a tool answers with an error, read it: fix the call, or answer without it.',
  );
  if (agent.runtime === 'v2') {
    parts.push(
      'Look things up with search_knowledge. After every statement put the number of the passage it comes from in brackets, like [1]; ' +
        'cite only passages search_knowledge returned in this turn. If the passages do not answer, say you could not find it in the knowledge base.',
    );
  } else if (agent.v1?.tools.length) {
    parts.push('Mention only records a catalog search returned, by their exact titles.');
  }
  if (variables.size) parts.push(`Known about this conversation:\n${[...variables].map(([k, v]) => `- ${k} = ${String(v)}`).join('\n')}`);
  return parts.join('\n\n');
}

/**
 * A call as it goes back to the model with its result: a name the providers accept (an unknown one is echoed in
 * function-name characters; the error result names it), arguments over the limit replaced by `{}`.
 */
function echoed(call: ToolCallRequest): ToolCallRequest {
  const name = /^[A-Za-z0-9_-]{1,128}$/.test(call.name) ? call.name : call.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'unknown';
  const args = call.arguments.length > MAX_ARGUMENT_CHARS ? '{}' : call.arguments;
  return name === call.name && args === call.arguments ? call : { ...call, name, arguments: args };
}

/** Tool call ids as the providers need them: present and distinct within one answer. */
function distinctIds(calls: ToolCallRequest[]): ToolCallRequest[] {
  const seen = new Set<string>();
  return calls.map((c, i) => {
    let id = c.id || `call_${i + 1}`;
    while (seen.has(id)) id = `${id}_${i + 1}`;
    seen.add(id);
    return id === c.id ? c : { ...c, id };
  });
}

/** Resolves with the tool's outcome, or rejects as soon as `signal` aborts (the tool's own work is left to its timeout). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The result text the model reads, at most MAX_RESULT_CHARS. */
function boundedResult(content: unknown): string {
  const text = cleanText(JSON.stringify(content) ?? 'null');
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}… [result cut at ${MAX_RESULT_CHARS} characters]` : text;
}

/** Nesting a call's key follows; deeper arguments (MCP tools take any JSON) are keyed by their text as written. */
const MAX_KEY_DEPTH = 32;

/** JSON with sorted keys: two calls with the same arguments in another order are the same call. */
function canonicalJson(value: unknown, depth = 0): string | null {
  if (depth > MAX_KEY_DEPTH) return null;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    const array = Array.isArray(value);
    for (const k of array ? value.keys() : Object.keys(value).sort()) {
      const inner = canonicalJson((value as Record<string | number, unknown>)[k], depth + 1);
      if (inner === null) return null;
      parts.push(array ? inner : `${JSON.stringify(k)}:${inner}`);
    }
    return array ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Model-written text made storable: no NUL (PostgreSQL refuses it in text and jsonb), no lone surrogate. */
export function cleanText(text: string): string {
  return text.replaceAll('\0', '').replace(LONE_SURROGATE, '');
}
