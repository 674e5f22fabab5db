import { STATUS_CODES } from 'node:http';
import type { Type } from '@nestjs/common';
import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';

/** A WebSocket route, which OpenAPI 3.0 cannot express as an operation: documented under `x-websocket`. */
export interface WebSocketRoute {
  /** The route path as the gateway declares it (BASE_PATH is prepended here). */
  path: string;
  summary: string;
  description: string;
  /** Frame `type` → the model of that frame, sent by the client. */
  clientFrames: Record<string, Type<unknown>>;
  /** Frame `type` → the model of that frame, sent by the server. */
  serverFrames: Record<string, Type<unknown>>;
  /** WebSocket close code → when the server uses it. */
  closeCodes: Record<string, string>;
}

/** An outbound webhook: the body the service POSTs to subscribed endpoints for one event type. */
export interface WebhookDoc {
  type: string;
  description: string;
  model: Type<unknown>;
}

/**
 * The rate limiter's headers (FixedWindowLimiter, docs/api.md), sent on every answer of a rate-limited operation
 * once its credential was checked, while rate limiting is on (RATE_LIMIT_MAX > 0) and Redis answers.
 */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: 'The limit: `<requests>;w=<window seconds>` (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS), per credential',
    schema: { type: 'string', maxLength: 32, pattern: '^\\d{1,10};w=\\d{1,10}$', example: '6000;w=60' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this credential',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends and the count starts over',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
};
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before the next request (the current window’s RateLimit-Reset)',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
};
/** Answered before the rate limiter counts the request (body parsing, credentials): no RateLimit headers. */
const BEFORE_THE_LIMITER = new Set(['401', '413', '415']);

type ResponseObject = { description?: string; headers?: Record<string, unknown> };

/** Rate-limited operations (those that document 429) name the limiter's headers on what they answer. */
function documentRateLimits(document: OpenAPIObject, responses: Record<string, ResponseObject>): void {
  if (!responses['429']) return;
  const components = (document.components ??= {});
  components.headers = { ...components.headers, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
  const refs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[24]\d\d$/.test(status) || BEFORE_THE_LIMITER.has(status)) continue;
    const names = status === '429' ? [...Object.keys(RATE_LIMIT_HEADERS), 'Retry-After'] : Object.keys(RATE_LIMIT_HEADERS);
    response.headers = { ...response.headers, ...refs(names) };
  }
}

type ParameterObject = { schema?: Record<string, unknown> & { type?: string; items?: Record<string, unknown> } };
/** What a value of an array parameter must be: @nestjs/swagger leaves these on a repeated query parameter's array. */
const ITEM_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum'];

/** Moves the value keywords of array parameters (`?tool=a&tool=b`, each 1..100 characters) into `items`, where they mean that. */
function itemKeywordsIntoItems(parameters: ParameterObject[] | undefined): void {
  for (const parameter of parameters ?? []) {
    const schema = parameter.schema;
    if (schema?.type !== 'array') continue;
    for (const keyword of ITEM_KEYWORDS) {
      if (schema[keyword] === undefined) continue;
      schema.items = { ...schema.items, [keyword]: schema[keyword] };
      delete schema[keyword];
    }
  }
}

/** The frame models of the routes, to register as components (`extraModels` of the document). */
export const webSocketModels = (routes: WebSocketRoute[]): Array<Type<unknown>> =>
  routes.flatMap((route) => [...Object.values(route.clientFrames), ...Object.values(route.serverFrames)]);

const frameRefs = (frames: Record<string, Type<unknown>>) =>
  Object.fromEntries(Object.entries(frames).map(([type, model]) => [type, { $ref: getSchemaPath(model) }]));

const frameList = (frames: Record<string, Type<unknown>>) =>
  Object.entries(frames)
    .map(([type, model]) => `\`${type}\` ([schema](${getSchemaPath(model)}))`)
    .join(', ');

/**
 * What the decorators cannot say: the servers, `security: []` on public operations (a route without `@Auth` is public:
 * the global RouteAccessGuard refuses routes that declare neither), the WebSocket routes with their frames
 * (`x-websocket`, and a tag whose description lists the frames for readers of Swagger UI), and the outbound webhooks
 * (OpenAPI 3.1 `webhooks`: one POST per event type, its body the event's model), and the rate limiter's headers.
 */
export function completeOpenApiDocument(
  document: OpenAPIObject,
  basePath: string,
  webSockets: WebSocketRoute[],
  webhooks: WebhookDoc[],
): OpenAPIObject {
  // One server for every environment (local, staging, production): the origin that served the document.
  document.servers = [
    {
      url: '/',
      description: basePath
        ? `This service in whichever environment (local, staging, production) served this document; every path already starts with its base path ${basePath}`
        : 'This service in whichever environment (local, staging, production) served this document',
      'x-internal': false,
    } as NonNullable<OpenAPIObject['servers']>[number],
  ];
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      operation.security ??= [];
      const responses = operation.responses as Record<string, ResponseObject>;
      // A success response declared by type only: name its status rather than leave the description empty.
      for (const [status, response] of Object.entries(responses)) {
        if (response.description === '') response.description = STATUS_CODES[status] ?? status;
      }
      documentRateLimits(document, responses);
      itemKeywordsIntoItems(operation.parameters as ParameterObject[] | undefined);
    }
  }
  (document as OpenAPIObject & Record<'x-websocket', unknown>)['x-websocket'] = Object.fromEntries(
    webSockets.map((route) => [
      basePath + route.path,
      {
        summary: route.summary,
        description: route.description,
        clientFrames: frameRefs(route.clientFrames),
        serverFrames: frameRefs(route.serverFrames),
        closeCodes: route.closeCodes,
      },
    ]),
  );
  (document as OpenAPIObject & Record<'webhooks', unknown>).webhooks = Object.fromEntries(
    webhooks.map((webhook) => [
      webhook.type,
      {
        post: {
          operationId: `webhook_${webhook.type.replaceAll('.', '_')}`,
          summary: webhook.type,
          description: `${webhook.description} Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.`,
          tags: ['Webhooks'],
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(webhook.model) } } } },
          responses: { '200': { description: 'Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried' } },
        },
      },
    ]),
  );
  document.tags = [
    ...(document.tags ?? []),
    ...webSockets.map((route) => ({
      name: `WebSocket ${basePath}${route.path}`,
      description:
        `${route.summary}. ${route.description}\n\nClient frames: ${frameList(route.clientFrames)}.\n\n` +
        `Server frames: ${frameList(route.serverFrames)}.\n\nClose codes: ` +
        Object.entries(route.closeCodes)
          .map(([code, when]) => `${code} ${when}`)
          .join('; ') +
        '. Machine-readable: the `x-websocket` extension of this document.',
    })),
  ];
  return document;
}
