#!/usr/bin/env bash
# `npm start`: one command from a fresh clone to a running service. Installs dependencies, provisions local
# PostgreSQL and Redis when no DATABASE_URL/REDIS_URL is given (installing the Debian packages if absent),
# builds, migrates, ensures a demo organization, prints its API key and the Swagger URL, and serves.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${DATABASE_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then bash scripts/services.sh; fi
[ -d node_modules ] || npm install --no-audit --no-fund
npm run -s build

# Secrets for local use, kept across restarts in .data/ (gitignored).
mkdir -p .data
[ -s .data/jwt-secret ] || head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > .data/jwt-secret
[ -s .data/demo-org-api-key ] || printf 'oak_demo_%s' "$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')" > .data/demo-org-api-key
export JWT_SECRET="${JWT_SECRET:-$(cat .data/jwt-secret)}"
export BOOTSTRAP_ORG_API_KEY="${BOOTSTRAP_ORG_API_KEY:-$(cat .data/demo-org-api-key)}"
export BOOTSTRAP_ORG_NAME="${BOOTSTRAP_ORG_NAME:-demo}"
host="${HOST:-127.0.0.1}"
port="${PORT:-3000}"
base="http://${host}:${port}${BASE_PATH:-}"

cat <<BANNER

  Agent service starting at ${base}
  Demo organization API key:  ${BOOTSTRAP_ORG_API_KEY}
  Swagger UI:                 ${base}/docs   (OpenAPI: ${base}/openapi.json)
  Try:  curl -H 'x-organization-api-key: ${BOOTSTRAP_ORG_API_KEY}' ${base}/management/v1/projects

BANNER
exec node dist/src/main.js
