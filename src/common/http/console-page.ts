import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { securityHeaders } from './security-headers.js';

/** Where `npm run build` writes the console (vite, see playground/vite.config.ts), from the package root. */
const BUILT_PAGE = ['dist', 'console'];

/**
 * The page's own policy, stricter than the API's (which lets Swagger UI run inline code): scripts, styles,
 * images and requests from this origin only, nothing inline, no plugins, no framing by other sites.
 */
const CONSOLE_CSP = securityHeaders({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: [`'none'`],
      scriptSrc: [`'self'`],
      styleSrc: [`'self'`],
      imgSrc: [`'self'`, 'data:'],
      connectSrc: [`'self'`],
      baseUri: [`'none'`],
      formAction: [`'none'`],
      frameAncestors: [`'self'`],
      objectSrc: [`'none'`],
    },
  },
})['content-security-policy']!;

/**
 * Serves the console (docs/playground.md) at `<BASE_PATH>/console/`; `<BASE_PATH>/console` redirects there, and so do the
 * playground's old addresses (`<BASE_PATH>/playground`, `…/playground/`), with relative Locations, so the page's
 * relative asset URLs and API calls keep whatever prefix the browser used (the base path, the legacy one, or a
 * proxy's). Returns false when the console has not been built.
 */
export function registerConsole(fastify: FastifyInstance, basePath: string): boolean {
  const root = builtPageDirectory();
  if (!root) return false;
  const prefix = `${basePath}/console`;
  const redirects = new Map([
    [prefix, 'console/'],
    [`${basePath}/playground`, 'console/'],
    [`${basePath}/playground/`, '../console/'],
  ]);
  // A hook rather than a route: the route index (405 answers) treats `/console` and `/console/` as one path.
  fastify.addHook('onRequest', (request, reply, done) => {
    const [path, query] = splitQuery(request.url);
    const location = redirects.get(path);
    if (location === undefined) return done();
    void reply.code(308).header('location', `${location}${query}`).send();
  });
  void fastify.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root,
      prefix: `${prefix}/`,
      decorateReply: false,
      redirect: false,
      // One route per built file (read at start): any other path under the prefix is an ordinary 404, not a
      // wildcard route that finds nothing (which the error filter would report as 405).
      wildcard: false,
      cacheControl: false,
      setHeaders: (reply, path) => {
        void reply.header('content-security-policy', CONSOLE_CSP);
        // Hashed asset names change with their content; the page itself is revalidated on every load.
        void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
  return true;
}

function splitQuery(url: string): [string, string] {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}

/** dist/console under the package root, found upwards from this module (dist/src/… when built, src/… under ts-jest). */
function builtPageDirectory(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) {
      const page = join(dir, ...BUILT_PAGE);
      return existsSync(join(page, 'index.html')) ? page : undefined;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
