import { parse as parseForm } from 'node:querystring';
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
 * The only body parsers: JSON everywhere, forms where a route needs them; any other type is 415. Both refuse,
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
}
