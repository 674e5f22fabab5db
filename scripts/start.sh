#!/usr/bin/env bash
# `npm start`: one command from a fresh clone to a running service with a demo to talk to. Checks the Node.js
# version, installs dependencies, provisions local PostgreSQL and Redis when no DATABASE_URL/REDIS_URL is given
# (installing the Debian packages if absent), builds, migrates, ensures the demo project (two live agents), and
# serves. The service prints the playground URL, the organization key and a curl once it listens.
set -euo pipefail
cd "$(dirname "$0")/.."

# package.json "engines": the floor the dependencies are checked against (README "Quickstart").
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "Node.js >= 20.19 is required (this is $(node --version)); see README.md" >&2
  exit 1
fi

# A variable counts as set when it is in the environment or in .env (which the service reads itself; the
# environment wins over it).
is_set() { [ -n "${!1:-}" ] || { [ -f .env ] && grep -qE "^[[:space:]]*(export[[:space:]]+)?$1=[^[:space:]]" .env; }; }

if ! is_set DATABASE_URL || ! is_set REDIS_URL; then bash scripts/services.sh; fi
[ -d node_modules ] || npm ci --ignore-scripts --no-audit --no-fund
npm run -s build

# Secrets for local use, kept across restarts in .data/ (gitignored), readable by this user only.
umask 077
mkdir -p .data
chmod 700 .data
[ -s .data/jwt-secret ] || head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > .data/jwt-secret
[ -s .data/demo-org-api-key ] || printf 'oak_demo_%s' "$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')" > .data/demo-org-api-key
chmod 600 .data/*
is_set JWT_SECRET || export JWT_SECRET="$(cat .data/jwt-secret)"
is_set BOOTSTRAP_ORG_API_KEY || export BOOTSTRAP_ORG_API_KEY="$(cat .data/demo-org-api-key)"
is_set BOOTSTRAP_ORG_NAME || export BOOTSTRAP_ORG_NAME=demo
export QUICKSTART_FILE=.data/quickstart.json

# The demo needs the schema first. If the database is unreachable this says nothing: the service, started next,
# reports which variable and address to fix.
if node dist/src/database/migrate.js >/dev/null 2>&1; then
  node dist/src/cli.js demo:ensure --file "$QUICKSTART_FILE" >/dev/null
fi
exec node dist/src/main.js
