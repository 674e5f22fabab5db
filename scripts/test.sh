#!/usr/bin/env bash
# The whole test suite (unit + e2e) against real PostgreSQL and Redis, which it starts or installs if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh
bash scripts/promtool.sh
# The playground's browser test drives Debian's Chromium (playwright-core never downloads a browser).
# Only the browser and a text font (its other recommends are desktop daemons).
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation >/dev/null
fi
[ -d node_modules ] || npm ci --ignore-scripts --no-audit --no-fund
npm run -s build
NODE_ENV=test npm run -s test:jest -- "$@"
