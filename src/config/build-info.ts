import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What was built and what runs it: the labels of `agent_build_info`. */
export interface BuildInfo {
  version: string;
  commit: string;
  nodeVersion: string;
}

let packageVersion: string | undefined;

/** The service's version from its package.json (the nearest one above this file, in the source tree or under dist/). */
function readPackageVersion(): string {
  if (packageVersion !== undefined) return packageVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-service') return (packageVersion = pkg.version ?? 'unknown');
    } catch {
      // No package.json here: look one level up.
    }
    const parent = dirname(dir);
    if (parent === dir) return (packageVersion = 'unknown');
    dir = parent;
  }
}

export function readBuildInfo(commit: string | undefined): BuildInfo {
  return { version: readPackageVersion(), commit: commit ?? 'unknown', nodeVersion: process.versions.node };
}
