#!/usr/bin/env bash
# The supported Node.js lines besides the machine's own (package.json engines: ^22.13.0 || >=24.11.0): the unit suite
# and one end-to-end journey on each line's floor, with binaries from the npm registry (scripts/node-runtime.sh). The
# full suite runs on the machine's Node.js (`npm test`). Expects a build and PostgreSQL/Redis (as after `npm test`).
set -euo pipefail
cd "$(dirname "$0")/.."
for version in 22.13.0 24.11.0; do
  bin=$(bash scripts/node-runtime.sh "$version")
  printf '\n--- Node.js %s: unit suite + client journey\n' "$("$bin/node" --version)"
  PATH="$bin:$PATH" NODE_ENV=test npm run -s test:jest -- src test/e2e/client-journey.e2e-spec.ts
done
