import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A path under the package root's `dist/` (what `npm run build` writes beside the compiled service), found upwards
 * from this module: dist/src/… when built, src/… under ts-jest. Undefined when it has not been built.
 */
export function builtPath(...segments: string[]): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) {
      const path = join(dir, 'dist', ...segments);
      return existsSync(path) ? path : undefined;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
