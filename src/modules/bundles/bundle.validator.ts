import { Injectable } from '@nestjs/common';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ValidationError, type ErrorDetail } from '../../common/errors/app-error.js';
import { tenantPatternProblem } from './bundle-pattern.js';
import { pointerToField } from './bundle-pointer.js';
import { BUNDLE_SCHEMA } from './bundle.schema.js';
import type { Bundle, HttpTool, McpServer } from './bundle.types.js';
import { placeholdersOf, RESERVED_TOOL_HEADERS, urlTemplateProblem } from './http-tool-template.js';
import { mcpToolName, MCP_TOOL_NAME_MAX, RESERVED_MCP_HEADERS } from './mcp-servers.js';
import { checkOutboundUrl } from '../../common/outbound/outbound-policy.js';
import { secretReferencesOf } from './secret-references.js';

const MAX_DETAILS = 50;

/**
 * Guardrail and parameter patterns of one bundle, together. Each runs over up to patternInputMaxChars of every
 * message (~0.45 ms per 16 kB each): 256 bound a turn's pattern work to about a tenth of a second, where the
 * per-array schema limits alone (100 × 100 guardrail patterns, 100 extractors) allowed seconds.
 */
export const MAX_BUNDLE_PATTERNS = 256;

function detailOf(error: ErrorObject, root: string): ErrorDetail | undefined {
  const at = pointerToField(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'if':
    case 'allOf':
      return undefined; // the failing branch reports the real problem
    case 'required':
      return { field: `${at}${pointerToField(`/${String(params.missingProperty)}`, '')}`, message: 'is required' };
    case 'additionalProperties':
      return { field: `${at}${pointerToField(`/${String(params.additionalProperty)}`, '')}`, message: 'is not a known field' };
    case 'enum':
      return { field: at, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'propertyNames':
      return { field: at, message: `has an invalid key ${JSON.stringify(params.propertyName)}` };
    default:
      return { field: at, message: error.message ?? 'is not valid' };
  }
}

/**
 * Validates bundles against the published JSON Schema (compiled once) and then checks what a schema cannot say:
 * patterns compile on the linear-time engine (RE2 syntax), codes are unique, tools name existing collections and declared intents.
 * Failures are 422 `validation_error` with `details[].field` pointing into the bundle (`bundle.rules[1].when.op`).
 */
@Injectable()
export class BundleValidator {
  private readonly validateSchema: ValidateFunction;

  constructor() {
    const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
    this.validateSchema = ajv.compile(BUNDLE_SCHEMA);
  }

  /** Every problem found; empty when the bundle is valid. */
  check(bundle: unknown, root = 'bundle'): ErrorDetail[] {
    if (!this.validateSchema(bundle)) {
      const seen = new Set<string>();
      const details: ErrorDetail[] = [];
      for (const error of this.validateSchema.errors ?? []) {
        const detail = detailOf(error, root);
        if (!detail) continue;
        const key = `${detail.field}\u0000${detail.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        details.push(detail);
      }
      return details.slice(0, MAX_DETAILS);
    }
    return semanticProblems(bundle as Bundle, root).slice(0, MAX_DETAILS);
  }

  /** Throws 422 unless the bundle is valid; returns it typed. */
  assertValid(bundle: unknown, root = 'bundle'): Bundle {
    const details = this.check(bundle, root);
    if (details.length > 0) {
      throw new ValidationError(details, 'The bundle does not match the bundle schema (GET /management/v1/bundle-schema)');
    }
    return bundle as Bundle;
  }
}

function semanticProblems(bundle: Bundle, root: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  let patterns = 0;
  const regex = (pattern: string, field: string) => {
    patterns += 1;
    if (patterns === MAX_BUNDLE_PATTERNS + 1) {
      problems.push({
        field,
        message: `is one pattern too many: a bundle holds at most ${MAX_BUNDLE_PATTERNS} guardrail and parameter patterns in all`,
      });
    }
    const problem = tenantPatternProblem(pattern);
    if (problem) problems.push({ field, message: problem });
  };
  const unique = <T>(items: T[] | undefined, key: (item: T) => string, path: string, name: string) => {
    const seen = new Set<string>();
    items?.forEach((item, i) => {
      const value = key(item);
      if (seen.has(value)) problems.push({ field: `${root}.${path}[${i}].${name}`, message: `duplicates ${JSON.stringify(value)}` });
      seen.add(value);
    });
  };

  bundle.guardrails?.forEach((g, i) => g.patterns.forEach((p, j) => regex(p, `${root}.guardrails[${i}].patterns[${j}]`)));
  bundle.parameters?.forEach((p, i) => regex(p.pattern, `${root}.parameters[${i}].pattern`));
  unique(bundle.guardrails, (g) => g.code, 'guardrails', 'code');
  unique(bundle.intents, (x) => x.name, 'intents', 'name');
  unique(bundle.parameters, (p) => p.code, 'parameters', 'code');
  unique(bundle.tools, (t) => t.code, 'tools', 'code');
  unique(bundle.rules, (r) => r.code, 'rules', 'code');
  unique(bundle.knowledge, (k) => k.id, 'knowledge', 'id');
  unique(bundle.mcp_servers, (m) => m.name, 'mcp_servers', 'name');
  for (const [name, records] of Object.entries(bundle.collections ?? {})) {
    unique(records, (r) => r.id, `collections${pointerToField(`/${name}`, '')}`, 'id');
  }

  if (bundle.model?.mode === 'agent') problems.push(...agentToolNameProblems(bundle, root));

  const collections = bundle.collections ?? {};
  const intents = new Set((bundle.intents ?? []).map((x) => x.name));
  bundle.tools?.forEach((tool, i) => {
    if (tool.type === 'http') problems.push(...httpToolProblems(tool, `${root}.tools[${i}]`));
    else if (!Object.hasOwn(collections, tool.collection)) {
      problems.push({
        field: `${root}.tools[${i}].collection`,
        message: `names no collection of this bundle (${JSON.stringify(tool.collection)})`,
      });
    }
    tool.intents?.forEach((intent, j) => {
      if (!intents.has(intent)) {
        problems.push({
          field: `${root}.tools[${i}].intents[${j}]`,
          message: `names no intent of this bundle (${JSON.stringify(intent)})`,
        });
      }
    });
  });
  problems.push(...mcpServerProblems(bundle.mcp_servers ?? [], root));
  return problems;
}

/** Header names: none the service sets itself, none twice (case-insensitively); values: well-formed secret references. */
function headerProblems(headers: Record<string, string> | undefined, reserved: ReadonlySet<string>, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    const field = `${at}.headers${pointerToField(`/${name}`, '')}`;
    if (reserved.has(lower)) problems.push({ field, message: 'is set by the service and cannot be configured' });
    else if (seen.has(lower)) problems.push({ field, message: 'duplicates another header (names are case-insensitive)' });
    seen.add(lower);
    const { problem } = secretReferencesOf(value);
    if (problem) problems.push({ field, message: problem });
  }
  return problems;
}

/**
 * What the MCP servers' schema cannot say: the URL passes the outbound policy, headers as for HTTP tools, each allowed
 * tool once, and every `<server>__<tool>` name fits the providers' function-name limit and is unique in the bundle.
 */
function mcpServerProblems(servers: McpServer[], root: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const names = new Map<string, string>();
  servers.forEach((server, i) => {
    const at = `${root}.mcp_servers[${i}]`;
    const urlProblem = checkOutboundUrl(server.url);
    if (urlProblem) problems.push({ field: `${at}.url`, message: urlProblem });
    problems.push(...headerProblems(server.headers, RESERVED_MCP_HEADERS, at));
    server.allowed_tools.forEach((tool, j) => {
      const field = `${at}.allowed_tools[${j}]`;
      const name = mcpToolName(server.name, tool);
      if (name.length > MCP_TOOL_NAME_MAX) {
        problems.push({ field, message: `makes the tool name ${name}, over ${MCP_TOOL_NAME_MAX} characters (the model providers' limit)` });
      } else if (names.has(name)) {
        problems.push({ field, message: `makes the tool name ${name}, which ${names.get(name)} makes too` });
      }
      if (!names.has(name)) names.set(name, field);
    });
  });
  return problems;
}

/** What an HTTP tool's schema cannot say: the URL template and its target, headers, and what templates may name. */
function httpToolProblems(tool: HttpTool, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const urlProblem = urlTemplateProblem(tool.url);
  if (urlProblem) problems.push({ field: `${at}.url`, message: urlProblem });
  problems.push(...headerProblems(tool.headers, RESERVED_TOOL_HEADERS, at));
  if (tool.body_params && tool.method === 'GET') {
    problems.push({ field: `${at}.body_params`, message: 'needs a method with a body (POST, PUT or PATCH)' });
  }
  const sent = new Set([...placeholdersOf(tool.url), ...(tool.body_params ?? [])]);
  const fields = new Set(Object.keys(tool.response.fields ?? {}));
  const known = (template: string, field: string) => {
    for (const name of placeholdersOf(template)) {
      if (!fields.has(name) && !sent.has(name)) {
        problems.push({ field, message: `names {${name}}, which is neither a response field nor a parameter the tool sends` });
      }
    }
  };
  known(tool.response.message, `${at}.response.message`);
  if (tool.response.card) known(tool.response.card.title, `${at}.response.card.title`);
  const items = tool.response.items;
  if (items && !Object.hasOwn(items.fields, items.title_field)) {
    problems.push({ field: `${at}.response.items.title_field`, message: 'names no field of response.items.fields' });
  }
  if (tool.input_schema) {
    const declared = new Set(Object.keys(tool.input_schema.properties));
    for (const name of sent) {
      if (!declared.has(name)) {
        problems.push({ field: `${at}.input_schema.properties`, message: `declares no property for {${name}}, which the call sends` });
      }
    }
    for (const name of declared) {
      if (!sent.has(name)) {
        problems.push({
          field: `${at}.input_schema.properties${pointerToField(`/${name}`, '')}`,
          message: 'is neither a URL placeholder nor a body parameter of the tool',
        });
      }
    }
    tool.input_schema.required?.forEach((name, j) => {
      if (!declared.has(name)) problems.push({ field: `${at}.input_schema.required[${j}]`, message: 'names no declared property' });
    });
  }
  return problems;
}

/** Names the engine gives the model itself (docs/agents.md); MCP tools are `<server>__<tool>`. */
export const RESERVED_AGENT_TOOL_NAMES = new Set(['search_knowledge', 'handoff_to_human']);

/** In agent mode a tool's code is a function name the providers accept (`^[A-Za-z0-9_-]{1,64}$`) and not one of ours. */
function agentToolNameProblems(bundle: Bundle, root: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  bundle.tools?.forEach((tool, i) => {
    const field = `${root}.tools[${i}].code`;
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(tool.code)) {
      problems.push({ field, message: 'is a function name in agent mode: letters, digits, _ and - only' });
    } else if (RESERVED_AGENT_TOOL_NAMES.has(tool.code) || tool.code.includes('__')) {
      problems.push({
        field,
        message: 'is reserved in agent mode (search_knowledge, handoff_to_human and names with "__" are the engine’s)',
      });
    }
  });
  return problems;
}
