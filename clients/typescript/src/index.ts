/**
 * Typed client for the agent service. The request and response types are generated from openapi.json
 * (src/schema.ts, `npm run client:generate`); this layer adds what a generator does not: API-key and token
 * authentication with refresh, SSE streaming with resume, the WebSocket session, errors as `ApiError`, and typed,
 * verified outbound webhook deliveries.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { PublishableKeyTokens } from './tokens.js';

export type { components, operations, paths } from './schema.js';
export { ApiError, unwrap } from './errors.js';
export { PublishableKeyTokens, type TokenResponse, type TokenSourceOptions } from './tokens.js';
export { streamMessage, type SendMessageBody, type StreamEvent, type StreamOptions } from './stream.js';
export { MessagingSession, type SessionFrame, type SessionOptions, type WebSocketLike } from './session.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
} from './webhooks.js';

export type ApiClient = Client<paths>;

/** The management surface with an organization API key (`x-organization-api-key`). */
export function managementClient(options: { baseUrl: string; orgApiKey: string; fetch?: typeof fetch }): ApiClient {
  return createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch, headers: { 'x-organization-api-key': options.orgApiKey } });
}

/**
 * The messaging surface as one agent, from its publishable key: each request carries a fresh access token
 * (exchanged on first use, refreshed before it expires). Use `client.tokens` for `streamMessage` and sessions.
 */
export function messagingClient(options: {
  baseUrl: string;
  publishableKey: string;
  fetch?: typeof fetch;
}): ApiClient & { tokens: PublishableKeyTokens } {
  const tokens = new PublishableKeyTokens(options);
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const bearer: Middleware = {
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${await tokens.accessToken()}`);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401) tokens.invalidate();
      return undefined;
    },
  };
  client.use(bearer);
  return Object.assign(client, { tokens });
}
