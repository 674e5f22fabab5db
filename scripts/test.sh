#!/usr/bin/env bash
# The whole test suite (unit + e2e) against real PostgreSQL and Redis, which it starts or installs if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh
bash scripts/promtool.sh
[ -d node_modules ] || npm install --no-audit --no-fund
npm run -s build
NODE_ENV=test npm run -s test:jest -- "$@"
