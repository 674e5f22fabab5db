import FindMyWay from 'find-my-way';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Every registered route, so that a request whose path exists under another method is answered 405 with
 * `Allow` instead of a bare 404. Fed by Fastify's onRoute hook; consulted only on the not-found path.
 */
export class RouteIndex {
  private readonly router: ReturnType<typeof FindMyWay>;

  /** `maxParamLength` as the server's router has it, so both match the same paths. */
  constructor(maxParamLength?: number) {
    this.router = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength });
  }

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      if ((METHODS as readonly string[]).includes(m) && !this.router.hasRoute(m as 'GET', url)) {
        this.router.on(m as 'GET', url, () => undefined);
      }
    }
  }

  allowedMethods(path: string): string[] {
    return METHODS.filter((m) => this.router.find(m, path) !== null);
  }
}
