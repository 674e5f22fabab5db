import type { Bundle, CatalogRecord, HttpTool, ParameterExtractor, Scalar } from '../../bundles/bundle.types.js';
import type { ToolSpec } from '../providers/llm-provider.js';
import type { CompiledHttpTool, HttpCallResult, HttpToolRequest } from '../engines/v1/http-tool.js';
import { buildHttpToolRequest, interpretHttpResult } from '../engines/v1/http-tool.js';
import type { CompiledTool, V1Index } from '../engines/v1/prepare.js';
import { runTool } from '../engines/v1/search.js';
import type { Passage, V2Index } from '../engines/v2-engine.js';
import { questionWords } from '../knowledge/analyzer.js';
import type { ParamValue } from '../trace.types.js';
import type { McpTools, McpToolSpec } from './mcp-tools.js';

/*
 * The tools agent mode offers the model (docs/agents.md), built once per revision: their specs (name, description,
 * JSON Schema) and how each one runs. Tool sources: the bundle's catalog searches and http tools (v1),
 * `search_knowledge` over the v2 index, and the revision's pinned MCP tools (`<server>__<tool>`).
 */

/** Longest string argument our own tools accept (a query, an order number). */
const MAX_STRING_ARGUMENT = 1000;
/** Passages one `search_knowledge` call returns. */
export const SEARCH_KNOWLEDGE_PASSAGES = 5;
/** Default deadline of a call whose tool names none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;
/** The loop's own bound on an MCP call: the MCP client ends it by the server's `timeout_ms` (at most 30 s) first. */
export const MCP_TOOL_TIMEOUT_MS = 30_000;

/** What a finished call hands back: the result the model reads, and a few words for the trace. */
export interface ToolOutcome {
  ok: boolean;
  /** JSON-serialisable; the loop bounds its text. */
  content: unknown;
  /** A top record's title, `3 passage(s)`, an order's title; empty when it failed. */
  title: string;
  /** Why it failed (ok false). */
  failReason: string;
}

/** A record a catalog search of this turn returned (cards come only from these). */
export interface FoundRecord {
  tool: CompiledTool;
  record: CatalogRecord;
}

/** A passage a `search_knowledge` call of this turn returned, under the number the model cites it by. */
export interface NumberedPassage {
  marker: number;
  passage: Passage;
  score: number;
}

/** What the calls of one turn found: numbered passages, catalog records by search. */
export class AgentTurnFindings {
  readonly passages: NumberedPassage[] = [];
  private readonly markers = new Map<string, number>();
  /** Each successful catalog search's records, in the order the searches finished. */
  readonly searches: FoundRecord[][] = [];

  /** The passage's number in this turn: a passage returned again keeps the number it was first given. */
  number(passage: Passage, score: number): number {
    let marker = this.markers.get(passage.id);
    if (marker === undefined) {
      marker = this.passages.length + 1;
      this.markers.set(passage.id, marker);
      this.passages.push({ marker, passage, score });
    }
    return marker;
  }
}

/** What a running call may use: who calls (HTTP tools are signed for the agent), when to stop, the turn's findings. */
export interface ToolCallContext {
  agentId?: string;
  signal: AbortSignal;
  /** Epoch milliseconds the turn ends at. */
  deadline: number;
  findings: AgentTurnFindings;
  /** The I/O of HTTP tools; absent in engine-only unit tests (such calls fail as unavailable). */
  io: ToolIo;
}

/** The outside world our own tools reach: signed HTTP tool calls. */
export interface ToolIo {
  http?: (agentId: string | undefined, tool: CompiledHttpTool, request: HttpToolRequest) => Promise<HttpCallResult>;
}

export interface AgentTool {
  spec: ToolSpec;
  kind: 'catalog_search' | 'http' | 'search_knowledge' | 'mcp';
  /** The MCP server of an MCP tool, else null. */
  server: string | null;
  /** The call's own deadline; the loop also stops it when the turn's time runs out. */
  timeoutMs: number;
  /** Why these arguments are not acceptable, or null (our tools: the flat schema; MCP tools: the server checks). */
  check(args: Record<string, unknown>): string | null;
  run(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome>;
}

/** A revision's tools in agent mode, by the name the model calls them. */
export interface AgentToolbox {
  tools: Map<string, AgentTool>;
  specs: ToolSpec[];
}

/** Builds the tools of an agent-mode revision once (RuntimeService.prepare caches them with the revision). */
export function prepareAgentTools(bundle: Bundle, v1: V1Index | undefined, v2: V2Index | undefined): AgentToolbox {
  const tools: AgentTool[] = [];
  const parameters = bundle.parameters ?? [];
  if (v1) {
    for (const tool of v1.tools) tools.push(catalogSearchTool(tool, parameters));
    for (const tool of v1.httpTools) tools.push(httpTool(tool, parameters));
  }
  if (v2) tools.push(searchKnowledgeTool(v2));
  // `handoff_to_human` ({reason}) joins here as one more tool source once handoff exists (issue 31): an AgentTool whose
  // run asks the handoff service to move the thread to `pending`; its name is already reserved in agent-mode bundles.
  return toolbox(tools);
}

function toolbox(tools: AgentTool[]): AgentToolbox {
  return { tools: new Map(tools.map((t) => [t.spec.name, t])), specs: tools.map((t) => t.spec) };
}

/** The revision's toolbox with its pinned MCP tools, built once per MCP toolbox (the MCP module caches those per revision). */
const withMcp = new WeakMap<AgentToolbox, WeakMap<McpTools, AgentToolbox>>();

export function withMcpTools(base: AgentToolbox, mcp: McpTools | undefined): AgentToolbox {
  if (!mcp?.tools.length) return base;
  let byToolbox = withMcp.get(base);
  if (!byToolbox) withMcp.set(base, (byToolbox = new WeakMap()));
  let merged = byToolbox.get(mcp);
  if (!merged) {
    merged = toolbox([...base.tools.values(), ...mcp.tools.map((spec) => mcpTool(spec, mcp))]);
    byToolbox.set(mcp, merged);
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------------------------
// Flat object schemas: what our own tools take, checked without a schema compiler.

type FlatType = 'string' | 'number' | 'integer' | 'boolean';
interface FlatProperty {
  type: FlatType;
  description?: string;
  enum?: Array<string | number>;
}

function flatSchema(properties: Record<string, FlatProperty>, required: string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(properties)) {
    props[name] = { ...p, ...(p.type === 'string' ? { maxLength: MAX_STRING_ARGUMENT } : {}) };
  }
  return { type: 'object', properties: props, required, additionalProperties: false };
}

/** Null when `args` fit the flat schema; else what is wrong, in words the model can act on. */
function checkFlat(args: Record<string, unknown>, properties: Record<string, FlatProperty>, required: string[]): string | null {
  for (const name of required) {
    if (args[name] === undefined || args[name] === null) return `"${name}" is required`;
  }
  for (const [name, value] of Object.entries(args)) {
    const p = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!p) return `"${name.slice(0, 64)}" is not an argument of this tool (it takes ${Object.keys(properties).join(', ') || 'none'})`;
    if (value === null) continue;
    const ok =
      p.type === 'string'
        ? typeof value === 'string' && value.length <= MAX_STRING_ARGUMENT
        : p.type === 'boolean'
          ? typeof value === 'boolean'
          : typeof value === 'number' && Number.isFinite(value) && (p.type === 'number' || Number.isInteger(value));
    if (!ok) {
      return `"${name}" must be ${p.type === 'integer' ? 'an integer' : `a ${p.type}`}${p.type === 'string' ? ` of at most ${MAX_STRING_ARGUMENT} characters` : ''}`;
    }
    if (p.enum && !p.enum.includes(value as string | number)) {
      return `"${name}" must be one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}`;
    }
  }
  return null;
}

/** The scalar arguments as parameters (null and missing ones left out). */
function paramsOf(args: Record<string, unknown>): Map<string, ParamValue> {
  const out = new Map<string, ParamValue>();
  for (const [k, v] of Object.entries(args)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.set(k, v);
  return out;
}

const TYPE_OF_PARAMETER: Record<ParameterExtractor['type'], FlatType> = { number: 'number', string: 'string', boolean: 'boolean' };

function parameterProperties(parameters: ParameterExtractor[], only?: Set<string>): Record<string, FlatProperty> {
  const out: Record<string, FlatProperty> = {};
  for (const p of parameters) if (!only || only.has(p.code)) out[p.code] = { type: TYPE_OF_PARAMETER[p.type], description: p.title };
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

function catalogSearchTool(tool: CompiledTool, parameters: ParameterExtractor[]): AgentTool {
  const def = tool.def;
  const properties: Record<string, FlatProperty> = {
    query: { type: 'string', description: 'What to look for, in a few words (e.g. "waterproof trail shoes")' },
    ...parameterProperties(parameters.filter((p) => p.code !== 'query')),
  };
  const fields = [...new Set([def.title_field, ...def.fields])];
  // The search as the engine runs it, with the tool's intents lifted: in agent mode the model decides when it runs.
  const searchable: CompiledTool = { ...tool, intents: null };
  return {
    spec: {
      name: def.code,
      description:
        def.description ??
        `Searches the ${def.collection} catalog (fields: ${fields.join(', ')}) and returns up to ${def.max_results} matching records. Only records it returns exist; use the optional fields to filter.`,
      parameters: flatSchema(properties, ['query']),
    },
    kind: 'catalog_search',
    server: null,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    check: (args) => checkFlat(args, properties, ['query']),
    run: (args, context) => {
      const query = String(args.query);
      const run = runTool(searchable, null, query, paramsOf(args), false, [query]);
      const records = run.hits.map((h) => h.record);
      if (records.length) context.findings.searches.push(records.map((record) => ({ tool, record })));
      const content: Record<string, unknown> = { results: records.map((r) => recordView(tool, r)) };
      if (!records.length) {
        const outcome = run.outcome;
        content.note =
          outcome?.kind === 'not_carried'
            ? `The catalog has no such products${outcome.categories.length ? `; it carries ${outcome.categories.join(', ')}` : ''}.`
            : outcome?.kind === 'none' && outcome.nearest
              ? `Nothing meets every filter; the nearest is ${String(outcome.nearest[def.title_field] ?? outcome.nearest.id)}.`
              : 'No record matches.';
      }
      const top = records[0];
      return Promise.resolve({
        ok: true,
        content,
        title: top ? String(top[def.title_field] ?? top.id) : 'no results',
        failReason: '',
      });
    },
  };
}

/** A record as the model reads it: id, title and the tool's fields (variants counted, not listed). */
function recordView(tool: CompiledTool, record: CatalogRecord): Record<string, Scalar> {
  const view: Record<string, Scalar> = { id: record.id, title: String(record[tool.def.title_field] ?? record.id) };
  for (const f of tool.def.fields) {
    const v = record[f];
    if (f !== tool.def.title_field && v !== undefined && (v === null || typeof v !== 'object')) view[f] = v;
  }
  if (record.variants?.length) view.variants = record.variants.length;
  return view;
}

function httpTool(tool: CompiledHttpTool, parameters: ParameterExtractor[]): AgentTool {
  const def: HttpTool = tool.def;
  const declared = def.input_schema;
  const properties: Record<string, FlatProperty> = declared
    ? declared.properties
    : Object.fromEntries(
        tool.sends.map((code) => {
          const known = parameters.find((p) => p.code === code);
          return [code, known ? { type: TYPE_OF_PARAMETER[known.type], description: known.title } : { type: 'string' as const }];
        }),
      );
  const required = declared ? (declared.required ?? []) : tool.sends;
  return {
    spec: {
      name: def.code,
      description: def.description ?? `Calls the operator's service (${def.method} ${def.code}) and returns what it answers.`,
      parameters: flatSchema(properties, required),
    },
    kind: 'http',
    server: null,
    timeoutMs: tool.timeoutMs,
    check: (args) => checkFlat(args, properties, required),
    run: async (args, context) => {
      const params = paramsOf(args);
      const missing = tool.sends.filter((code) => !params.has(code));
      if (missing.length) return failed(`missing argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
      const request = buildHttpToolRequest(tool, params);
      const result: HttpCallResult = context.io.http
        ? await context.io.http(context.agentId, tool, request)
        : { ok: false, reason: 'unavailable', detail: 'HTTP tools are not available here', status: null, latencyMs: null };
      const run = interpretHttpResult(tool, 'called by the model', request, params, result);
      if (!run.ok) {
        return {
          ok: false,
          content: { error: run.call.failure_reason, detail: run.call.detail, status: run.call.status },
          title: '',
          failReason: `${run.call.failure_reason}: ${run.call.detail}`,
        };
      }
      const content: Record<string, unknown> = { message: run.text };
      if (run.entity && Object.keys(run.entity).length) content.fields = run.entity;
      if (run.items.length) content.items = run.items;
      return { ok: true, content, title: run.title || run.text.slice(0, 120), failReason: '' };
    },
  };
}

function searchKnowledgeTool(ix: V2Index): AgentTool {
  const properties: Record<string, FlatProperty> = {
    query: { type: 'string', description: 'The question or the words to look for in the knowledge base' },
  };
  return {
    spec: {
      name: 'search_knowledge',
      description:
        'Searches the knowledge base and returns numbered passages with their title and url. Cite a passage you use by its number in brackets, like [1]; only passages returned in this conversation turn may be cited.',
      parameters: flatSchema(properties, ['query']),
    },
    kind: 'search_knowledge',
    server: null,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    check: (args) => checkFlat(args, properties, ['query']),
    run: (args, context) => {
      // The builtin engine's index and ranking (knowledge/retriever.ts), the best passages first.
      const result = ix.retriever.search(questionWords(String(args.query)));
      const passages = result.passages.slice(0, SEARCH_KNOWLEDGE_PASSAGES).flatMap((r) => {
        const passage = ix.passages[r.index];
        if (!passage) return [];
        const n = context.findings.number(passage, r.score);
        return [{ n, title: passage.title, ...(passage.url ? { url: passage.url } : {}), text: passage.text }];
      });
      const content = passages.length
        ? { passages }
        : { passages, note: 'Nothing in the knowledge base matches. Say you could not find it rather than guessing.' };
      return Promise.resolve({ ok: true, content, title: `${passages.length} passage(s)`, failReason: '' });
    },
  };
}

function mcpTool(spec: McpToolSpec, mcp: McpTools): AgentTool {
  return {
    spec: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
    kind: 'mcp',
    server: spec.server,
    timeoutMs: MCP_TOOL_TIMEOUT_MS,
    // The server validates against the schema it published; the loop has made sure the arguments are an object.
    check: () => null,
    run: async (args, context) => {
      const result = await mcp.callTool(spec.server, spec.tool, args, { signal: context.signal, deadline: context.deadline });
      if (result.status === 'failed') {
        const reason = `${result.reason ?? 'failed'}: ${result.text.slice(0, 200)}`;
        return { ok: false, content: { error: result.reason ?? 'failed', detail: result.text }, title: '', failReason: reason };
      }
      return { ok: true, content: result.structuredContent ?? { text: result.text }, title: result.text.slice(0, 120), failReason: '' };
    },
  };
}

function failed(reason: string): ToolOutcome {
  return { ok: false, content: { error: reason }, title: '', failReason: reason };
}
