import { parse as parseForm } from 'node:querystring';
import fastifyMultipart from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError, ValidationError } from '../errors/app-error.js';
import { assertStorableDocument, parseUntrustedJson } from '../validation/safe-json.js';

export interface BodyParserOptions {
  bodyLimit: number;
  /** Whether the matched route takes `application/x-www-form-urlencoded` (every other route takes JSON only). */
  acceptsForms: (request: FastifyRequest) => boolean;
}

/**
 * Route config of the routes that take `multipart/form-data` (`@RouteConfig(MULTIPART_ROUTE)`); the route reads the
 * parts itself (`request.parts(limits)`), after its guards, with its own limits.
 */
export const MULTIPART_ROUTE = { multipart: true } as const;

/**
 * The only body parsers: JSON everywhere, forms where a route needs them, multipart on MULTIPART_ROUTE routes; any other type is 415. Both refuse,
 * while parsing and before a controller runs, what no route could accept: nesting deeper than the JSON depth
 * limit (scanned before an object is built), prototype poisoning, and strings PostgreSQL cannot store (NUL,
 * lone surrogates), as 422 `validation_error` naming the field.
 */
export function registerBodyParsers(app: NestFastifyApplication, options: BodyParserOptions): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.removeContentTypeParser('text/plain');

  // An empty JSON body is "no body": clients often send the header on bodyless POSTs.
  app.useBodyParser('application/json', { bodyLimit: options.bodyLimit }, (_request, body: Buffer, done) => {
    done(null, body.length === 0 ? undefined : parseUntrustedJson(body.toString('utf8')));
  });

  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit: options.bodyLimit }, (request, body: Buffer, done) => {
    if (!options.acceptsForms(request as FastifyRequest)) throw new UnsupportedMediaTypeError();
    // A null-prototype object, where "__proto__" would be an ordinary key until something copies it.
    const form = parseForm(body.toString('utf8'));
    if (Object.hasOwn(form, '__proto__')) throw ValidationError.field('__proto__', '__proto__ is not allowed');
    assertStorableDocument(form, 'body');
    done(null, form);
  });

  // @fastify/multipart only marks a multipart request here (nothing is read until the route asks for the parts); the
  // hook refuses multipart on every route that does not take it, before its guards, as a JSON-only route refuses forms.
  // Parts are capped at the JSON body limit unless the route asks for more.
  void fastify.register(fastifyMultipart, { limits: { fileSize: options.bodyLimit, files: 1, fields: 10, parts: 10 } });
  fastify.addHook('preValidation', (request, _reply, done) => {
    const config = request.routeOptions.config as { multipart?: boolean } | undefined;
    done(request.isMultipart() && !config?.multipart ? new UnsupportedMediaTypeError() : undefined);
  });
}
