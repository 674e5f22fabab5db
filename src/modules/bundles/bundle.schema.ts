/**
 * The JSON Schema (draft-07) of a configuration bundle: the shape of bundle.types.ts, enforced on push,
 * served at GET /management/v1/bundle-schema and documented in docs/bundle.md.
 *
 * Objects are closed (`additionalProperties: false`) so typos are reported instead of silently ignored;
 * top-level fields starting with `x_` are free extension fields that every engine ignores.
 * Catalog records are open: their fields are the caller's own.
 */

const CODE = {
  type: 'string',
  pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$',
  description: 'Identifier: a letter, then letters, digits, _ . - (max 64)',
};
const SHORT_TEXT = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
const STRING_LIST = (maxItems: number, maxLength: number) => ({ type: 'array', maxItems, items: SHORT_TEXT(maxLength) });
const SCALAR = { type: ['string', 'number', 'boolean', 'null'] };

const CATALOG_TOOL = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'type', 'collection', 'title_field', 'fields', 'max_results'],
  properties: {
    code: CODE,
    type: { const: 'catalog_search' },
    collection: { ...SHORT_TEXT(100), description: 'A key of "collections"' },
    title_field: SHORT_TEXT(100),
    fields: { type: 'array', minItems: 1, maxItems: 50, items: SHORT_TEXT(100) },
    max_results: { type: 'integer', minimum: 1, maximum: 50 },
    intents: { type: 'array', minItems: 1, maxItems: 50, items: CODE },
    description: { ...SHORT_TEXT(1000), description: 'Agent mode: what the tool finds, as the model reads it' },
  },
};

/** Agent mode: an HTTP tool's arguments, a flat object of scalars (docs/agents.md). */
const TOOL_INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'properties'],
  description: 'Agent mode: the arguments the model passes; one property per URL placeholder or body parameter',
  properties: {
    type: { const: 'object' },
    properties: {
      type: 'object',
      maxProperties: 20,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { enum: ['string', 'number', 'integer', 'boolean'] },
          description: SHORT_TEXT(500),
          enum: { type: 'array', minItems: 1, maxItems: 50, items: { type: ['string', 'number'], maxLength: 200 } },
        },
      },
    },
    required: { type: 'array', maxItems: 20, items: CODE },
  },
};

/** RFC 6901: `""` (the whole document) or `/`-separated tokens with `~0` and `~1` escapes. */
const JSON_POINTER = {
  type: 'string',
  maxLength: 500,
  pattern: '^(/([^~/]|~[01])*)*$',
  description: 'JSON pointer (RFC 6901) into the response, e.g. /order/status; "" is the whole document',
};
const FIELD_MAP = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$' },
  additionalProperties: JSON_POINTER,
};

/** Static request headers of a call to the operator's endpoint; `{{secret:NAME}}` in a value is filled at call time. */
const HEADERS = {
  type: 'object',
  maxProperties: 20,
  propertyNames: { pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" },
  additionalProperties: { type: 'string', maxLength: 1000, pattern: '^[^\\u0000-\\u001f\\u007f]*$' },
};

const HTTP_TOOL = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'type', 'method', 'url', 'response'],
  properties: {
    code: CODE,
    type: { const: 'http' },
    method: { enum: ['GET', 'POST', 'PUT', 'PATCH'] },
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'http(s) URL template; {param} placeholders (path and query only) are filled with computed parameters, percent-encoded',
    },
    headers: { ...HEADERS, description: 'Static request headers, e.g. an API key of your endpoint; {{secret:NAME}} is an agent secret' },
    body_params: { type: 'array', minItems: 1, maxItems: 20, items: CODE, description: 'Parameters sent as a JSON object body' },
    timeout_ms: { type: 'integer', minimum: 100, maximum: 10000, default: 5000, description: 'Whole call: connect, send, answer' },
    intents: { type: 'array', minItems: 1, maxItems: 50, items: CODE },
    response: {
      type: 'object',
      additionalProperties: false,
      required: ['message'],
      properties: {
        message: { ...SHORT_TEXT(2000), description: 'The reply; {name} is a mapped field or a parameter the tool sent' },
        fields: { ...FIELD_MAP, description: 'Field name → JSON pointer into the response' },
        card: {
          type: 'object',
          additionalProperties: false,
          required: ['title'],
          properties: { title: { ...SHORT_TEXT(200), description: 'Card title template' } },
        },
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['pointer', 'fields', 'title_field'],
          properties: {
            pointer: JSON_POINTER,
            fields: { ...FIELD_MAP, minProperties: 1, description: 'Field name → JSON pointer into each element' },
            title_field: CODE,
            max_items: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
          },
        },
      },
    },
    fallback_message: { ...SHORT_TEXT(2000), description: 'The reply when the call fails or times out' },
    description: { ...SHORT_TEXT(1000), description: 'Agent mode: what the tool does, as the model reads it' },
    input_schema: TOOL_INPUT_SCHEMA,
  },
};

/** Either runtime: an MCP server over Streamable HTTP (docs/mcp.md). */
const MCP_SERVER = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url', 'allowed_tools'],
  properties: {
    name: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]{0,31}$',
      description: 'Unique in the bundle; the model sees each tool as <name>__<tool>',
    },
    url: { type: 'string', minLength: 1, maxLength: 2048, description: 'The Streamable HTTP endpoint (http or https)' },
    headers: { ...HEADERS, description: 'Static request headers, e.g. Authorization: Bearer {{secret:NAME}} (an agent secret)' },
    allowed_tools: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      description: "The server's tools the model may call; each must exist on the server when the bundle is pushed",
    },
    timeout_ms: { type: 'integer', minimum: 100, maximum: 30000, default: 10000, description: 'Each call, connection included' },
  },
};

export const BUNDLE_SCHEMA_ID = 'https://agent-service.local/schemas/bundle.json';

export const BUNDLE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: BUNDLE_SCHEMA_ID,
  title: 'Agent configuration bundle',
  description:
    'Configuration of one agent revision. Fields under "Runtime v1" drive the decisioning engine, "knowledge" the grounded (v2) engine.',
  type: 'object',
  additionalProperties: false,
  patternProperties: { '^x_': { description: 'Extension field, ignored by the engines' } },
  properties: {
    schema_version: { type: 'integer', enum: [1], description: 'Bundle format version (default 1)' },
    name: { ...SHORT_TEXT(100), description: "Display name; kept equal to the agent's name by rename" },
    welcome_message: { type: 'string', maxLength: 2000 },
    welcome_suggestions: { ...STRING_LIST(10, 200), description: 'Prompts offered before the first message' },
    persona: { type: 'string', maxLength: 8000, description: 'Voice and instructions for the wording' },
    model: {
      type: 'object',
      additionalProperties: false,
      required: ['provider'],
      properties: {
        provider: { enum: ['builtin', 'openai', 'anthropic'], default: 'builtin' },
        name: { ...SHORT_TEXT(200), description: 'Provider model name; ignored by builtin' },
        temperature: { type: 'number', minimum: 0, maximum: 2 },
        max_output_tokens: { type: 'integer', minimum: 1, maximum: 65536 },
        mode: {
          enum: ['compose', 'agent'],
          default: 'compose',
          description:
            '`compose`: the engine decides and the model words the reply; `agent`: the model calls the tools and writes the reply under the engine’s guarantees (docs/agents.md). Agent mode needs provider openai or anthropic',
        },
        max_steps: { type: 'integer', minimum: 1, maximum: 20, default: 6, description: 'Agent mode: model calls per turn' },
        max_turn_tokens: {
          type: 'integer',
          minimum: 100,
          maximum: 2000000,
          default: 50000,
          description: 'Agent mode: tokens (input and output of every model call) a turn may use; then the fallback reply',
        },
      },
      allOf: [
        {
          if: { properties: { mode: { const: 'agent' } }, required: ['mode'] },
          then: { properties: { provider: { enum: ['openai', 'anthropic'] } } },
        },
      ],
    },
    followups: {
      type: 'object',
      additionalProperties: false,
      properties: {
        default: STRING_LIST(10, 200),
        intents: {
          type: 'object',
          description: 'Intent name → follow-up suggestions after a reply to that intent',
          propertyNames: { maxLength: 100 },
          additionalProperties: STRING_LIST(10, 200),
        },
      },
    },
    guardrails: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'patterns', 'message'],
        properties: {
          code: CODE,
          patterns: {
            type: 'array',
            minItems: 1,
            maxItems: 100,
            items: { ...SHORT_TEXT(500), description: 'Case-insensitive regular expression, RE2 syntax (no backreferences or lookaround)' },
          },
          message: SHORT_TEXT(2000),
        },
      },
    },
    intents: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'examples'],
        properties: {
          name: CODE,
          examples: { type: 'array', minItems: 1, maxItems: 200, items: SHORT_TEXT(500) },
        },
      },
    },
    parameters: {
      type: 'array',
      maxItems: 100,
      description: 'Runtime v1: extractors; the value is the first capture group, else the whole match',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'title', 'pattern', 'type'],
        properties: {
          code: CODE,
          title: SHORT_TEXT(200),
          pattern: { ...SHORT_TEXT(500), description: 'Case-insensitive regular expression, RE2 syntax (no backreferences or lookaround)' },
          type: { enum: ['number', 'string', 'boolean'] },
        },
      },
    },
    tools: {
      type: 'array',
      maxItems: 50,
      description:
        'Runtime v1: tools; a tool runs on every unblocked message, or only for its intents. `catalog_search` searches a collection; `http` calls your endpoint (docs/http-tools.md)',
      items: {
        type: 'object',
        required: ['code', 'type'],
        properties: { code: CODE, type: { enum: ['catalog_search', 'http'] } },
        allOf: [
          { if: { properties: { type: { const: 'catalog_search' } }, required: ['type'] }, then: CATALOG_TOOL },
          { if: { properties: { type: { const: 'http' } }, required: ['type'] }, then: HTTP_TOOL },
        ],
      },
    },
    collections: {
      type: 'object',
      description: 'Runtime v1: collection name → records',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,99}$' },
      additionalProperties: {
        type: 'array',
        maxItems: 10000,
        items: {
          type: 'object',
          required: ['id'],
          properties: {
            id: SHORT_TEXT(200),
            variants: { type: 'array', maxItems: 200, items: { type: 'object', additionalProperties: SCALAR } },
          },
          additionalProperties: SCALAR,
        },
      },
    },
    rules: {
      type: 'array',
      maxItems: 200,
      description: 'Runtime v1: rules over computed parameters',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'when', 'action', 'message'],
        properties: {
          code: CODE,
          when: {
            type: 'object',
            additionalProperties: false,
            required: ['param', 'op'],
            properties: {
              param: CODE,
              op: { enum: ['<', '<=', '>', '>=', '=', 'exists'] },
              value: SCALAR,
            },
            allOf: [
              {
                if: { properties: { op: { enum: ['<', '<=', '>', '>='] } }, required: ['op'] },
                then: { required: ['value'], properties: { value: { type: 'number' } } },
              },
              {
                if: { properties: { op: { const: '=' } }, required: ['op'] },
                then: { required: ['value'] },
              },
            ],
          },
          action: { enum: ['block', 'ask', 'respond'] },
          message: SHORT_TEXT(2000),
          asking_for: { type: 'array', maxItems: 20, items: CODE },
        },
      },
    },
    mcp_servers: {
      type: 'array',
      maxItems: 10,
      description:
        "Either runtime, agent mode: MCP servers whose allowed tools the model may call. The tools' descriptions and input schemas are fetched and pinned when the bundle is pushed (docs/mcp.md)",
      items: MCP_SERVER,
    },
    embeddings: {
      type: 'object',
      additionalProperties: false,
      required: ['provider', 'model'],
      description:
        'Runtime v2: dense retrieval fused with the lexical ranking. The endpoint and key come from the service configuration (EMBEDDINGS_BASE_URL / EMBEDDINGS_API_KEY, else the OPENAI_* ones), never from the bundle',
      properties: {
        provider: { enum: ['openai'], description: 'An OpenAI-compatible POST /v1/embeddings' },
        model: { ...SHORT_TEXT(200), description: 'Embeddings model name, e.g. text-embedding-3-small' },
        dimensions: { type: 'integer', minimum: 1, maximum: 8192, description: 'Requested vector size, for models that take one' },
        min_similarity: {
          type: 'number',
          minimum: -1,
          maximum: 1,
          description: 'Cosine similarity a passage needs to join the fused ranking on dense evidence alone (default 0.3)',
        },
      },
    },
    knowledge: {
      type: 'array',
      maxItems: 2000,
      description: 'Runtime v2: documents the grounded engine retrieves and cites',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title', 'text'],
        properties: {
          id: SHORT_TEXT(200),
          title: SHORT_TEXT(300),
          url: { type: 'string', maxLength: 2000, pattern: '^https?://[^\\s]+$' },
          text: { type: 'string', minLength: 1, maxLength: 200000 },
        },
      },
    },
    knowledge_settings: {
      type: 'object',
      additionalProperties: false,
      description: 'Runtime v2: when the grounded engine declines instead of answering from its knowledge',
      properties: {
        min_confidence: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          description:
            'Share of the question (0–1) the best passage must cover to be answered from; below it the engine declines. Default 0.2 (calibrated, docs/engines.md); 0 never declines a question some passage matches',
        },
        decline_message: {
          ...SHORT_TEXT(1000),
          description:
            'Reply when the engine declines; the nearest covered topics follow as suggestions. Default: "I couldn\'t find that in the knowledge base."',
        },
      },
    },
  },
} as const;
