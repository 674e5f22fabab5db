#!/usr/bin/env bash
# Fault tests against the built service (run after `npm run build`; CI runs this after `npm test`).
# Each script uses its own database, Redis key prefix and processes; shared PostgreSQL and Redis keep running.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f dist/src/main.js ] || npm run -s build
npx tsc -p test/faults/tsconfig.json
bash scripts/services.sh
status=0
for source in test/faults/*.ts; do
  script="dist/test/faults/$(basename "$source" .ts).js"
  echo "=== fault test: ${source}"
  NODE_ENV=test timeout 240 node "$script" || status=1
done
exit "$status"
