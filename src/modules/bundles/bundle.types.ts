/**
 * The configuration bundle an agent version carries (docs/bundle.md).
 * The JSON Schema in bundle.schema.ts enforces this shape on push; engines read it through these types.
 */

/** The engine generation an agent runs and its bundles are written for. */
export type AgentRuntime = 'v1' | 'v2';

/** Bundle format version; the engines of this build run these. Older/newer ones need a republish (webhooks.no_runtime_version). */
export const SUPPORTED_SCHEMA_VERSIONS = [1] as const;
export type BundleSchemaVersion = (typeof SUPPORTED_SCHEMA_VERSIONS)[number];

export type Scalar = string | number | boolean | null;

export interface ModelSettings {
  provider: 'builtin' | 'openai' | 'anthropic';
  /** Provider model name, e.g. `gpt-4o-mini` or `claude-sonnet-4-5`; ignored by builtin. */
  name?: string;
  temperature?: number;
  max_output_tokens?: number;
  /**
   * `compose` (default): the engine decides, the model words the reply. `agent`: the model runs a loop of tool calls
   * and writes the reply under the engine's guarantees (docs/agents.md); needs provider openai or anthropic.
   */
  mode?: 'compose' | 'agent';
  /** Agent mode: model calls per turn, 1..20 (default 6). */
  max_steps?: number;
  /** Agent mode: tokens (input + output, every model call) a turn may use before it stops with the fallback reply. */
  max_turn_tokens?: number;
}

export interface Followups {
  default?: string[];
  /** Intent name → suggestions offered after a reply to that intent. */
  intents?: Record<string, string[]>;
}

export interface Guardrail {
  code: string;
  /** Case-insensitive regular expressions (RE2 syntax); a match blocks the message. */
  patterns: string[];
  message: string;
}

export interface Intent {
  name: string;
  examples: string[];
}

/** v1: extracts a value from the message; the value is the first capture group, else the whole match. */
export interface ParameterExtractor {
  code: string;
  title: string;
  pattern: string;
  type: 'number' | 'string' | 'boolean';
}

/** v1: searches a collection; runs on every unblocked message, or only for the listed intents. */
export interface CatalogSearchTool {
  code: string;
  type: 'catalog_search';
  collection: string;
  title_field: string;
  /** Record fields that are indexed for search and shown on cards. */
  fields: string[];
  max_results: number;
  intents?: string[];
  /** What the tool finds, for the model in agent mode (a default is written from the collection and fields). */
  description?: string;
}

export type HttpToolMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/**
 * v1: calls the operator's endpoint (docs/http-tools.md). Runs like a catalog tool (always, or for its intents)
 * once every parameter it sends is computed; the JSON answer is mapped by JSON pointers into the reply and cards.
 */
export interface HttpTool {
  code: string;
  type: 'http';
  method: HttpToolMethod;
  /** `https://api.example.com/orders/{order_id}`: `{param}` placeholders (path and query only) are percent-encoded. */
  url: string;
  /** Static request headers (the signature headers are added by the service); `{{secret:NAME}}` is filled at call time. */
  headers?: Record<string, string>;
  /** Parameters sent as a JSON object body (POST, PUT, PATCH). */
  body_params?: string[];
  /** 100..10000, default 5000. */
  timeout_ms?: number;
  intents?: string[];
  response: HttpToolResponse;
  /** The reply when the call fails (error status, timeout, refused address, unusable JSON). */
  fallback_message?: string;
  /** What the tool does, for the model in agent mode. */
  description?: string;
  /**
   * Agent mode: the arguments the model passes, one flat property per value the call sends (URL placeholders and
   * body parameters); absent = every value the call sends, typed by the bundle's parameters (else string), required.
   */
  input_schema?: HttpToolInputSchema;
}

/** A flat object of scalar properties: what an HTTP tool call can send (no nesting, so no schema bombs). */
export interface HttpToolInputSchema {
  type: 'object';
  properties: Record<string, { type: 'string' | 'number' | 'integer' | 'boolean'; description?: string; enum?: Array<string | number> }>;
  required?: string[];
}

export interface HttpToolResponse {
  /** The reply: `{name}` is a mapped field or a parameter the tool sent. */
  message: string;
  /** Field name → JSON pointer into the response (`/status`, `/delivery/eta`); `""` is the whole document. */
  fields?: Record<string, string>;
  /** One card whose `json_data.entity` holds the mapped fields; `title` is a template like `message`. */
  card?: { title: string };
  /** One card per element of the array at `pointer`, its entity mapped by `fields` (pointers into the element). */
  items?: { pointer: string; fields: Record<string, string>; title_field: string; max_items?: number };
}

export type BundleTool = CatalogSearchTool | HttpTool;

/**
 * Either runtime: an MCP server (Streamable HTTP) whose allowed tools the agent-mode model may call as
 * `<name>__<tool>` (docs/mcp.md). The tools' descriptions and input schemas are fetched and pinned at push.
 */
export interface McpServer {
  /** `^[a-z][a-z0-9_]{0,31}$`, unique in the bundle. */
  name: string;
  url: string;
  /** Static request headers; `{{secret:NAME}}` in a value is the agent's secret NAME, filled at call time. */
  headers?: Record<string, string>;
  /** The server's tools the model may call (at least one); every one must exist on the server at push. */
  allowed_tools: string[];
  /** Each call, connection included: 100..30000, default 10000. */
  timeout_ms?: number;
}

export interface CatalogRecord {
  id: string;
  variants?: Array<Record<string, Scalar>>;
  [field: string]: Scalar | Array<Record<string, Scalar>> | undefined;
}

export type RuleOperator = '<' | '<=' | '>' | '>=' | '=' | 'exists';

/** v1: evaluated over computed parameters. */
export interface Rule {
  code: string;
  when: { param: string; op: RuleOperator; value?: Scalar };
  action: 'block' | 'ask' | 'respond';
  message: string;
  asking_for?: string[];
}

/** v2: when the grounded engine declines (see runtime/knowledge/answerability.ts). */
export interface KnowledgeSettings {
  min_confidence?: number;
  decline_message?: string;
}

/** v2: a document the grounded engine may cite. */
export interface KnowledgeDocument {
  id: string;
  title: string;
  url?: string;
  text: string;
}

/** v2: an OpenAI-compatible embeddings model; its endpoint and key come from the service configuration. */
export interface EmbeddingsSettings {
  provider: 'openai';
  model: string;
  dimensions?: number;
  min_similarity?: number;
}

export interface Bundle {
  schema_version?: BundleSchemaVersion;
  name?: string;
  welcome_message?: string;
  welcome_suggestions?: string[];
  persona?: string;
  model?: ModelSettings;
  followups?: Followups;
  guardrails?: Guardrail[];
  intents?: Intent[];
  // Runtime v1 (decisioning engine)
  parameters?: ParameterExtractor[];
  tools?: BundleTool[];
  collections?: Record<string, CatalogRecord[]>;
  rules?: Rule[];
  // Either runtime (agent mode)
  mcp_servers?: McpServer[];
  // Runtime v2 (grounded engine)
  knowledge?: KnowledgeDocument[];
  knowledge_settings?: KnowledgeSettings;
  embeddings?: EmbeddingsSettings;
}
