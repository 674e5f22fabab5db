import { KB_BUNDLE } from '../../../../test/fixtures/runtime/kb.fixture.js';
import { SHOP_BUNDLE } from '../../../../test/fixtures/runtime/shop.fixture.js';
import type { Bundle } from '../../bundles/bundle.types.js';
import { prepareV1 } from '../engines/v1/prepare.js';
import { prepareV2 } from '../engines/v2-engine.js';
import type { PreparedAgent } from '../prepared-agent.js';
import type { AgentModelRequest, AgentModelResponse, LlmProvider } from '../providers/llm-provider.js';
import { providerEndpoint } from '../providers/provider-errors.js';
import type { StepProgress, TurnInput } from '../runtime.types.js';
import type { V1Trace, V2Trace } from '../trace.types.js';
import { MAX_CALLS_PER_STEP, MAX_PARALLEL_CALLS, MAX_RESULT_CHARS, runAgentTurn, type AgentLoopDeps } from './agent-loop.js';
import { AGENT_FALLBACK } from './agent-result.js';
import { prepareAgentTools, withMcpTools } from './agent-tools.js';
import type { McpToolResult, McpTools } from './mcp-tools.js';

type Answer = Partial<AgentModelResponse> | ((request: AgentModelRequest) => Promise<Partial<AgentModelResponse>>);

/** A provider that answers each model call with the next scripted answer and records the requests. */
class ScriptedModel implements LlmProvider {
  readonly name = 'openai' as const;
  readonly endpoint = providerEndpoint('openai', 'http://scripted.invalid/v1');
  readonly defaultModel = 'scripted-model';
  readonly requests: AgentModelRequest[] = [];
  constructor(private readonly answers: Answer[]) {}
  complete(): never {
    throw new Error('compose is not used in agent mode');
  }
  stream(): never {
    throw new Error('compose is not used in agent mode');
  }
  async converse(request: AgentModelRequest): Promise<AgentModelResponse> {
    this.requests.push(structuredClone({ ...request, signal: undefined }) as unknown as AgentModelRequest);
    const next = this.answers.shift() ?? { text: 'Done.' };
    const answer = typeof next === 'function' ? await next(request) : next;
    return { text: '', toolCalls: [], usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, reasoning_tokens: 0 }, ...answer };
  }
}

const call = (name: string, args: unknown, id = name) => ({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

function agentOf(runtime: 'v1' | 'v2', bundle: Bundle): PreparedAgent {
  const full: Bundle = { ...bundle, model: { ...bundle.model, provider: 'openai', mode: 'agent' } };
  const v1 = runtime === 'v1' ? prepareV1(full) : undefined;
  const v2 = runtime === 'v2' ? prepareV2(full) : undefined;
  return {
    digest: 'sha256:agent',
    runtime,
    bundle: full,
    provider: 'openai',
    identity: 'You are a test agent.',
    identityTokens: 6,
    tokenMemo: new Map(),
    v1,
    v2,
    tools: prepareAgentTools(full, v1, v2),
  };
}

/** MCP tools on server `crm` answered by `call`. */
function mcpOf(tools: string[], call: (tool: string, args: unknown, signal?: AbortSignal) => Promise<McpToolResult>): McpTools {
  return {
    tools: tools.map((tool) => ({ name: `crm__${tool}`, server: 'crm', tool, description: tool, inputSchema: { type: 'object' } })),
    callTool: (_server, tool, args, options) => call(tool, args, options?.signal),
  };
}

const completed = (text: string): McpToolResult => ({ status: 'completed', text, truncated: false, durationMs: 1 });

const input = (text: string, extra: Partial<TurnInput> = {}): TurnInput => ({ text, agentVariables: {}, history: [], ...extra });

function deps(provider: LlmProvider, agent: PreparedAgent, extra: Partial<AgentLoopDeps> & { mcp?: McpTools } = {}): AgentLoopDeps {
  return { provider, tools: withMcpTools(agent.tools!, extra.mcp), io: {}, turnTimeoutMs: 60_000, ...extra };
}

/** Runs one turn of `agent` with `model`. */
function turnOf(
  agent: PreparedAgent,
  model: LlmProvider,
  text: string,
  extra: Parameters<typeof deps>[2] = {},
  onStep?: (s: StepProgress) => void,
) {
  return runAgentTurn(agent, agent.runtime === 'v2' ? '2.1.0' : '1.0.0', input(text), deps(model, agent, extra), {
    stream: Boolean(onStep),
    onStep,
  });
}

describe('agent loop', () => {
  it('offers search_knowledge to v2 agents and numbers passages across searches (a passage returned again keeps its number)', async () => {
    const model = new ScriptedModel([
      { toolCalls: [call('search_knowledge', { query: 'return refund' })] },
      { toolCalls: [call('search_knowledge', { query: 'refund return item' })] },
      { text: 'Returns within 30 days [1]; see [9].' },
    ]);
    const result = await turnOf(agentOf('v2', KB_BUNDLE), model, 'how do returns work?');
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['search_knowledge']);
    const first = JSON.parse((model.requests[1]!.exchange[1] as { results: Array<{ content: string }> }).results[0]!.content);
    const second = JSON.parse((model.requests[2]!.exchange[3] as { results: Array<{ content: string }> }).results[0]!.content);
    const byId = (r: { passages: Array<{ n: number; title: string; text: string }> }) => new Map(r.passages.map((p) => [p.text, p.n]));
    for (const [text, n] of byId(second)) if (byId(first).has(text)) expect(n).toBe(byId(first).get(text));
    expect(result.text).toBe('Returns within 30 days [1]; see.');
    const trace = result.trace as V2Trace;
    expect(trace.checks.find((c) => c.name === 'citations_map_to_passages')).toMatchObject({
      passed: false,
      detail: expect.stringContaining('[9]'),
    });
    expect(trace.citations_used.map((c) => c.marker)).toEqual([1]);
    expect(result.usage).toEqual({ input_tokens: 30, output_tokens: 15, cache_read_tokens: 0, reasoning_tokens: 0 });
    expect(result.facets.tools).toEqual(['search_knowledge']);
  });

  it('stops the guardrail-matched message before the model sees it, and replaces a reply a guardrail matches', async () => {
    const model = new ScriptedModel([{ text: 'Your password is hunter2.' }]);
    const blocked = await turnOf(agentOf('v2', KB_BUNDLE), model, 'reset my password');
    expect(blocked.text).toMatch(/Never share your password/);
    expect(model.requests).toHaveLength(0);
    expect((blocked.trace as V2Trace).agent).toMatchObject({ stop_reason: 'guardrail', model_calls: 0 });

    const reply = await turnOf(agentOf('v2', KB_BUNDLE), model, 'how do I log in?');
    expect(reply.text).toMatch(/Never share your password/);
    const trace = reply.trace as V2Trace;
    expect(trace.checks.find((c) => c.name === 'reply_guardrails')).toMatchObject({ passed: false });
    expect(trace.agent?.stop_reason).toBe('guardrail');
  });

  it('evaluates rules on arguments: a block refuses the call and the model reads why; cards come only from returned records', async () => {
    const model = new ScriptedModel([
      { toolCalls: [call('product_search', { query: 'running shoes', budget: 10 })] },
      { toolCalls: [call('product_search', { query: 'running shoes', budget: 120 })] },
      { text: 'Try these.' },
    ]);
    const result = await turnOf(agentOf('v1', SHOP_BUNDLE), model, 'shoes');
    const refusal = (model.requests[1]!.exchange[1] as { results: Array<{ content: string; isError: boolean }> }).results[0]!;
    expect(refusal.isError).toBe(true);
    expect(refusal.content).toContain('budget_too_low');
    const trace = result.trace as V1Trace;
    expect(trace.decisions.map((d) => d.status)).toEqual(['refused', 'completed']);
    expect(result.facets.rules).toEqual(expect.arrayContaining([{ code: 'budget_too_low', outcome: 'blocked' }]));
    const found = JSON.parse((model.requests[2]!.exchange[3] as { results: Array<{ content: string }> }).results[0]!.content);
    expect(result.cards.map((c) => c.instance)).toEqual(found.results.map((r: { id: string }) => r.id));
    expect(result.cards.length).toBeGreaterThan(0);
  });

  it('runs at most MAX_PARALLEL_CALLS at once and refuses calls beyond MAX_CALLS_PER_STEP', async () => {
    let inFlight = 0;
    let max = 0;
    const mcp = mcpOf(['lookup'], async (_tool, args) => {
      inFlight += 1;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      return completed(`ok ${String((args as { n: number }).n)}`);
    });
    const calls = Array.from({ length: MAX_CALLS_PER_STEP + 2 }, (_, i) => call('crm__lookup', { n: i }, `c${i}`));
    const model = new ScriptedModel([{ toolCalls: calls }, { text: 'Done.' }]);
    const steps: StepProgress[] = [];
    const result = await turnOf(agentOf('v1', SHOP_BUNDLE), model, 'look up', { mcp }, (s) => steps.push(s));
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['product_search', 'crm__lookup']);
    expect(max).toBe(MAX_PARALLEL_CALLS);
    const trace = result.trace as V1Trace;
    expect(trace.decisions.map((d) => d.status)).toEqual([...Array(MAX_CALLS_PER_STEP).fill('completed'), 'refused', 'refused']);
    expect(trace.decisions[0]).toMatchObject({ tool: 'crm__lookup', parent_tool: 'crm' });
    expect(steps.filter((s) => s.status === 'started')).toHaveLength(MAX_CALLS_PER_STEP + 2);
    expect(result.facets.tools).toEqual(['crm__lookup']);
  });

  it('bounds results, strips NUL from what it stores, and ends a hanging call at the turn deadline with the fallback', async () => {
    const mcp = mcpOf(['big', 'hang'], (tool, _args, signal) =>
      tool === 'big'
        ? Promise.resolve(completed('x'.repeat(50_000)))
        : new Promise((resolve) =>
            signal?.addEventListener('abort', () =>
              resolve({ status: 'failed', reason: 'aborted', text: 'aborted', truncated: false, durationMs: 0 }),
            ),
          ),
    );
    const model = new ScriptedModel([{ toolCalls: [call('crm__big', { q: 'a\u0000b' })] }, { toolCalls: [call('crm__hang', {})] }]);
    const result = await turnOf(agentOf('v1', SHOP_BUNDLE), model, 'go', { mcp, turnTimeoutMs: 500 });
    const results = (model.requests[1]!.exchange[1] as { results: Array<{ content: string; isError: boolean }> }).results;
    expect(results[0]!.content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS + 60);
    // The turn's deadline ended the hanging call: a failed step, and the fallback with the reason.
    expect(result.text).toBe(AGENT_FALLBACK);
    const trace = result.trace as V1Trace;
    expect(trace.decisions[0]!.text).not.toContain('\u0000');
    expect(trace.decisions[1]).toMatchObject({ status: 'failed', fail_reason: expect.stringContaining("turn's time ran out") });
    expect(trace.agent?.stop_reason).toBe('turn_deadline');
  });

  it('answers the fallback when the token budget or the turn deadline runs out', async () => {
    const spend = new ScriptedModel([
      {
        toolCalls: [call('search_knowledge', { query: 'a' })],
        usage: { input_tokens: 400, output_tokens: 200, cache_read_tokens: 0, reasoning_tokens: 0 },
      },
    ]);
    const budget = await turnOf(agentOf('v2', { ...KB_BUNDLE, model: { provider: 'openai', max_turn_tokens: 500 } }), spend, 'shipping?');
    expect(budget.text).toBe(AGENT_FALLBACK);
    expect((budget.trace as V2Trace).agent).toMatchObject({ stop_reason: 'token_budget', tokens_used: 600 });

    const hang = new ScriptedModel([
      (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    ]);
    const late = await turnOf(agentOf('v2', KB_BUNDLE), hang, 'shipping?', { turnTimeoutMs: 50 });
    expect(late.text).toBe(AGENT_FALLBACK);
    expect((late.trace as V2Trace).agent?.stop_reason).toBe('turn_deadline');
  });

  it('refuses oversized arguments and nested values where a flat schema wants scalars (schema bombs)', async () => {
    let nested = '"x"';
    for (let i = 0; i < 2000; i++) nested = `{"a":${nested}}`;
    const model = new ScriptedModel([
      {
        toolCalls: [
          call('search_knowledge', `{"query":"${'q'.repeat(20_000)}"}`, 'big'),
          call('search_knowledge', `{"query":${nested}}`, 'deep'),
        ],
      },
      { text: 'Sorry.' },
    ]);
    const result = await turnOf(agentOf('v2', KB_BUNDLE), model, 'hi');
    const steps = (result.trace as V2Trace).steps!;
    expect(steps.map((s) => s.status)).toEqual(['refused', 'refused']);
    expect(steps[0]!.fail_reason).toMatch(/over 16384 characters/);
    expect(steps[1]!.fail_reason).toMatch(/"query" must be a string/);
    expect(steps.every((s) => s.arguments.length <= 2000)).toBe(true);
    // The oversized arguments are not echoed back to the model.
    expect((model.requests[1]!.exchange[0] as { toolCalls: Array<{ arguments: string }> }).toolCalls[0]!.arguments).toBe('{}');
  });
});
