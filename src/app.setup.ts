import { maxHeaderSize, type IncomingMessage } from 'node:http';
import fastifyCors from '@fastify/cors';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, type onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { ErrorCode } from './common/errors/error-code.js';
import { ErrorFilter } from './common/http/error.filter.js';
import { answerClientError, answerRouterError } from './common/errors/protocol-errors.js';
import { errorEnvelope } from './common/errors/error-envelope.js';
import { authenticateAgentKeyBeforeBody } from './modules/events/authenticate-before-body.js';
import { registerBodyParsers } from './common/http/body-parsers.js';
import { requestIdFrom } from './common/http/request-id.js';
import { RouteIndex } from './common/http/route-index.js';
import { trustFunction } from './config/trusted-proxies.js';
import { registerWidget } from './common/http/widget.js';
import { registerConsole } from './common/http/console-page.js';
import { documentLiveness, registerLiveness } from './modules/health/liveness.js';
import { SessionWsAdapter } from './modules/streaming/session-ws.adapter.js';
import { SESSION_WEBSOCKET_DOC } from './modules/streaming/dto/session-frame.dto.js';
import { SESSION_PATH } from './modules/streaming/session.gateway.js';
import { freshIdempotencyKey } from './common/swagger/fresh-idempotency-key.js';
import { documentValidationLimits } from './common/swagger/validation-limits.js';
import { completeOpenApiDocument, webSocketModels, type WebhookDoc, type WebSocketRoute } from './common/swagger/openapi-document.js';
import { WEBHOOK_DESCRIPTIONS, WEBHOOK_MODELS } from './modules/webhooks/dto/webhook-payloads.dto.js';
import { WEBHOOK_EVENT_TYPES } from './modules/webhooks/webhooks.constants.js';
import { securityHeaders } from './common/http/security-headers.js';
import { createLogger, PinoNestLogger } from './common/logging/logger.js';
import { assertStorableDocument } from './common/validation/safe-json.js';
import { createValidationPipe } from './common/validation/validation-pipe.js';
import { AuthService } from './modules/auth/auth.service.js';
import { sendOAuthError } from './modules/auth/oauth-error.filter.js';
import { SECURITY_AGENT_API_KEY, SECURITY_BEARER, SECURITY_ORG_API_KEY } from './modules/auth/decorators/auth.decorator.js';
import { MetricsService } from './modules/metrics/metrics.service.js';
import { RATE_LIMIT_HEADERS } from './modules/auth/rate-limit/fixed-window.limiter.js';

const LEGACY = Symbol('legacyBasePath');
const EVENTS_PATH = /\/messaging\/v1\/events(\/|\?|$)/;

/** Routes the edge treats apart, as their controllers declare them (BASE_PATH is prepended). */
const TOKEN_ROUTE = '/management/v1/auth/token';
const EVENTS_ROUTE = '/messaging/v1/events';
/** Forms are accepted only where the client cannot send JSON: OAuth token requests and the channel provider's webhooks. */
const FORM_ROUTES = [TOKEN_ROUTE, '/messaging/v1/channels/:channel/inbound', '/messaging/v1/channels/:channel/status'];

/**
 * A path parameter may be as long as the request line Node accepts, so that the route matches and its own
 * validation answers (an over-long id is 422 naming the parameter, docs/security.md), not the router's 414.
 */
const MAX_PARAM_LENGTH = maxHeaderSize;

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
const perRequestChildLogger: ChildLoggerFactory = (parent, bindings, options) => parent.child(bindings, options);
// Below info nothing is logged per request: skip creating a child logger for every request.
const sharedLogger: ChildLoggerFactory = (parent) => parent;

/** Builds the whole service (not yet listening): the same wiring for `main`, the worker, e2e tests and the OpenAPI script. */
export async function createApp(config: AppConfig, logger: Logger = createLogger(config)): Promise<NestFastifyApplication> {
  const routes = new RouteIndex(MAX_PARAM_LENGTH);
  const security = apiSecurityHeaders();
  const basePath = config.http.basePath;
  const legacyBase = basePath ? `${basePath}-v2` : undefined;
  const logsRequests = logger.isLevelEnabled('info');
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // Requests are logged by our own hook (configureApp); fastify's per-request lines stay off.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.http.bodyLimitBytes,
    trustProxy: trustFunction(config.http.trustedProxies),
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => requestIdFrom(req.headers['x-request-id']),
    // Spec "Versioning" 2: the earlier base path (BASE_PATH + "-v2") serves the same routes for a while.
    rewriteUrl: (req: IncomingMessage) => {
      const url = req.url ?? '/';
      if (legacyBase && (url === legacyBase || url.startsWith(`${legacyBase}/`) || url.startsWith(`${legacyBase}?`))) {
        (req as IncomingMessage & { [LEGACY]?: boolean })[LEGACY] = true;
        return basePath + url.slice(legacyBase.length);
      }
      return url;
    },
    forceCloseConnections: 'idle',
    // Fastify's own drain answer is a bare 503; ours (onRequest below) uses the envelope and says when to retry.
    return503OnClosing: false,
    childLoggerFactory: logsRequests ? perRequestChildLogger : sharedLogger,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // What fails before any route or filter runs still answers in the envelope with a request id.
    frameworkErrors: answerRouterError(security),
    clientErrorHandler: answerClientError(security),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await configureApp(app, config, routes, security, logsRequests);
  return app;
}

/**
 * The JSON API's headers (OWASP REST Security): a response is data, never a page, so the policy forbids every
 * resource and any framing; HSTS, nosniff and no referrer. Helmet's HTML-only headers (DNS prefetch, IE download
 * options, Flash policies, the XSS auditor, origin-agent clustering) are left off: a JSON body gives them nothing
 * to act on, and every response would carry their ~440 bytes.
 */
function apiSecurityHeaders(): Record<string, string> {
  return securityHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: [`'none'`], frameAncestors: [`'none'`] } },
    crossOriginOpenerPolicy: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    originAgentCluster: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
    frameguard: { action: 'deny' },
  });
}

/** Swagger UI at /docs is a page: helmet's full set, with the inline styles and scripts it needs. */
function docsSecurityHeaders(): Record<string, string> {
  return securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: [`'self'`],
        styleSrc: [`'self'`, `'unsafe-inline'`],
        imgSrc: [`'self'`, 'data:', 'validator.swagger.io'],
        scriptSrc: [`'self'`, `https: 'unsafe-inline'`],
      },
    },
  });
}

async function configureApp(
  app: NestFastifyApplication,
  config: AppConfig,
  routes: RouteIndex,
  security: Record<string, string>,
  logsRequests: boolean,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const sunset = new Date(`${config.http.legacySunset}T00:00:00Z`).toUTCString();
  const basePath = config.http.basePath;
  const formRoutes = new Set(FORM_ROUTES.map((path) => basePath + path));
  const authenticateEvents = authenticateAgentKeyBeforeBody(app.get(AuthService));
  const metrics = app.get(MetricsService);
  const docsPrefix = `${basePath}/docs`;
  const docsSecurity = docsSecurityHeaders();

  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    // The token endpoint answers every failure with the OAuth body, those of body parsing (before Nest) included.
    if (route.url === basePath + TOKEN_ROUTE) route.errorHandler = sendOAuthError;
    if (route.url === basePath + EVENTS_ROUTE && route.method === 'POST') {
      route.onRequest = [...asArray(route.onRequest), authenticateEvents];
    }
    // The route's label is bound here, once: reading `request.routeOptions` per request builds a 12-field object.
    const url = route.url;
    const recordMetrics: onResponseHookHandler = (request, reply, done) => {
      metrics.httpResponded(request.method, url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...asArray(route.onResponse), recordMetrics];
  });
  let draining = false;
  fastify.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(request.url.startsWith(docsPrefix) ? docsSecurity : security).header('x-request-id', request.id);
    if (draining) {
      // A request that arrives on a kept-alive connection while in-flight work drains: send it elsewhere.
      void reply
        .status(503)
        .headers({ 'retry-after': '1', connection: 'close' })
        .send(errorEnvelope(ErrorCode.InternalError, 'This instance is shutting down; retry the request', request.id));
      return;
    }
    if ((request.raw as IncomingMessage & { [LEGACY]?: boolean })[LEGACY]) {
      void reply.headers({ deprecation: 'true', sunset, link: `<${config.http.basePath}>; rel="successor-version"` });
    }
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    // Matched routes are counted by their own hook (onRoute above); what no route matched is counted here.
    if (request.is404) metrics.httpResponded(request.method, undefined, reply.statusCode, reply.elapsedTime / 1000);
    if (logsRequests) {
      request.log.info(
        { method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });

  registerBodyParsers(app, {
    bodyLimit: config.http.bodyLimitBytes,
    acceptsForms: (request) => formRoutes.has(request.routeOptions.url ?? ''),
  });
  // The URL's share of the input: path parameters and query values reach SQL as body fields do, so they get the
  // same refusal of NUL and lone surrogates (bodies are checked by their parser), named by parameter.
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      assertStorableDocument(request.params, 'path');
      assertStorableDocument(request.query, 'query');
      done();
    } catch (error) {
      done(error as Error);
    }
  });

  // Both policies are built once: the delegator runs on every request (the package normalises what it returns).
  const browserFacingCors = {
    origin: true,
    maxAge: 600,
    exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed', ...RATE_LIMIT_HEADERS],
    allowedHeaders: ['authorization', 'content-type', 'last-event-id', 'x-request-id', 'idempotency-key'],
  };
  const origins = config.http.managementCorsOrigins;
  const managementCors =
    origins.length > 0
      ? { origin: origins, maxAge: 600, exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed', ...RATE_LIMIT_HEADERS] }
      : { origin: false };
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback) => {
      const path = request.url;
      // Any origin may ask the browser-facing routes; a publishable key's allowed origins are enforced on the exchange and on each request.
      const browserFacing = path.includes('/messaging/v1/') || path.includes('/management/v1/auth/token');
      return callback(null, browserFacing ? browserFacingCors : managementCors);
    },
  });

  if (config.http.basePath) app.setGlobalPrefix(config.http.basePath);
  app.useWebSocketAdapter(new SessionWsAdapter(app, config.http.basePath, security));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(
    new ErrorFilter(routes, (url) => (EVENTS_PATH.test(url) ? 'webhooks.payload_too_large' : ErrorCode.PayloadTooLarge)),
  );

  registerLiveness(fastify, basePath);
  if (!registerConsole(fastify, basePath)) {
    fastify.log.warn('the console is not built (npm run build): /console is not served');
  }
  if (!registerWidget(fastify, basePath)) {
    fastify.log.warn('the web widget is not built (npm run build): /widget.js is not served');
  }
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config.http.basePath), {
    jsonDocumentUrl: '/openapi.json',
    useGlobalPrefix: true,
    raw: ['json'],
    swaggerOptions: { requestInterceptor: freshIdempotencyKey },
  });
}

/** The WebSocket routes, which OpenAPI 3.0 operations cannot describe (see completeOpenApiDocument). */
const WEBSOCKET_ROUTES: WebSocketRoute[] = [{ path: SESSION_PATH, ...SESSION_WEBSOCKET_DOC }];

/** The outbound webhooks, one per event type (docs/webhooks.md): the document's `webhooks`. */
const WEBHOOKS: WebhookDoc[] = WEBHOOK_EVENT_TYPES.map((type) => ({
  type,
  description: WEBHOOK_DESCRIPTIONS[type],
  model: WEBHOOK_MODELS[type],
}));

/** The OpenAPI document as served at /openapi.json and written by `npm run openapi:generate` (docs/api.md). */
export function buildOpenApiDocument(app: NestFastifyApplication, basePath = ''): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Conversational Agent Service')
    .setDescription(
      'Management and Messaging APIs. Errors use the envelope `{ error: { code, message, request_id, details? } }` ' +
        '(the token endpoint answers OAuth 2.0 style `{ error, error_description }`). Every request example in this document ' +
        'succeeds as sent once its path ids and credentials are yours (test/e2e/openapi-examples.e2e-spec.ts sends them all). ' +
        'Streaming: `POST /messaging/v1/messages/stream` documents its Server-Sent Events; the WebSocket session is under ' +
        '`x-websocket` and its tag. Guides: docs/ in the repository.',
    )
    .setVersion('0.1.0')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'Access token from POST /management/v1/auth/token: a JWT following RFC8725 (JWT best practices): HS256 pinned on ' +
          'verification; issuer, expiry, maximum age and the token type checked',
      },
      SECURITY_BEARER,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-organization-api-key', description: 'Organization API key: management only' },
      SECURITY_ORG_API_KEY,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-agent-api-key', description: 'Agent API key: events webhook only' },
      SECURITY_AGENT_API_KEY,
    )
    .build();
  documentValidationLimits();
  const document = SwaggerModule.createDocument(app, options, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    extraModels: [...webSocketModels(WEBSOCKET_ROUTES), ...WEBHOOKS.map((webhook) => webhook.model)],
  });
  return completeOpenApiDocument(documentLiveness(document, basePath), basePath, WEBSOCKET_ROUTES, WEBHOOKS);
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
