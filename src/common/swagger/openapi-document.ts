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
 * (OpenAPI 3.1 `webhooks`: one POST per event type, its body the event's model).
 */
export function completeOpenApiDocument(
  document: OpenAPIObject,
  basePath: string,
  webSockets: WebSocketRoute[],
  webhooks: WebhookDoc[],
): OpenAPIObject {
  document.servers = [
    {
      url: '/',
      description: basePath
        ? `This service; every path already starts with its base path ${basePath}`
        : 'This service (the origin that served this document)',
    },
  ];
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      operation.security ??= [];
      // A success response declared by type only: name its status rather than leave the description empty.
      for (const [status, response] of Object.entries(operation.responses as Record<string, { description?: string }>)) {
        if (response.description === '') response.description = STATUS_CODES[status] ?? status;
      }
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
