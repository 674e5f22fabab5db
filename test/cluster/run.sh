#!/usr/bin/env bash
# The cluster test (test/cluster/cluster.ts) against the built service: 3 API replicas, 2 workers and HAProxy on
# loopback, on a database and Redis prefix of its own. Installs Debian's haproxy when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f dist/src/main.js ] || npm run -s build
if ! command -v haproxy >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "[cluster] installing haproxy (Debian package)" >&2
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q haproxy >/dev/null
fi
npx tsc -p test/cluster/tsconfig.json
bash scripts/services.sh
NODE_ENV=test timeout 480 node dist/test/cluster/cluster.js
