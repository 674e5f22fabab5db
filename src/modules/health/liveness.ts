import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';

/** The liveness answer: the same object every time (Fastify serializes it with the route's compiled schema). */
const LIVE = { status: 'ok' } as const;

const LIVE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'], example: 'ok', description: 'Always ok when the service answers' } },
  required: ['status'],
};

/**
 * `GET /health` is a Fastify route, not a Nest handler: a liveness probe should depend on as little as possible, and
 * Nest's pipeline (guards, the execution context, the exception zone, response handling) was most of its cost
 * (docs/performance.md, "/health"). It still runs every instance-wide hook: security headers, request id, CORS, the
 * URL check, metrics and the drain answer.
 */
export function registerLiveness(fastify: FastifyInstance, basePath: string): void {
  fastify.get(`${basePath}/health`, { schema: { response: { 200: LIVE_SCHEMA } } }, (_request, reply) => {
    void reply.send(LIVE);
  });
}

/** Its operation in the OpenAPI document, listed just before readiness (a Nest route), as the two were before. */
export function documentLiveness(document: OpenAPIObject, basePath: string): OpenAPIObject {
  const liveness = {
    get: {
      operationId: 'Health_live',
      summary: 'Liveness: the process is up',
      description: 'No credential. 200 while the process serves HTTP; checks nothing else.',
      tags: ['Health'],
      security: [],
      parameters: [],
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: LIVE_SCHEMA } } } },
    },
  };
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (path === `${basePath}/health/ready`) paths[`${basePath}/health`] = liveness;
    paths[path] = item;
  }
  return { ...document, paths };
}
