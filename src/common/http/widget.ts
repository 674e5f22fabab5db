import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { builtPath } from './built-files.js';

/**
 * Any site may load the script (its publishable key's allowed origins decide where it works), so it is shared
 * across origins: CORS for `<script crossorigin>` and subresource integrity, and a resource policy that lets other
 * origins embed it (the API's own `same-origin` would block it). The URL has no version in it, so caches revalidate
 * after five minutes (a new release reaches every site within that) and the ETag makes that a 304.
 */
const MAX_AGE_SECONDS = 300;

/**
 * Serves the web widget (docs/widget.md) at `<BASE_PATH>/widget.js`, as built by `npm run build` into
 * dist/widget/widget.js (read once at start). Returns false when it has not been built.
 */
export function registerWidget(fastify: FastifyInstance, basePath: string): boolean {
  const file = builtPath('widget', 'widget.js');
  if (!file) return false;
  const body = readFileSync(file);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  fastify.get(`${basePath}/widget.js`, (request, reply) => {
    void reply.headers({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': `public, max-age=${MAX_AGE_SECONDS}`,
      etag,
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    const match = request.headers['if-none-match'];
    if (match && (match === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))) {
      return reply.code(304).send();
    }
    return reply.send(body);
  });
  return true;
}
