#!/usr/bin/env bash
# Ensures local PostgreSQL and Redis are installed (Debian packages) and running, and that the service's
# database role exists. Idempotent: does nothing that is already done. Used by `npm start`, `npm test` and CI.
set -euo pipefail

DB_ROLE=agent_service
DB_PASSWORD=agent_service
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

log() { printf '[services] %s\n' "$*" >&2; }

missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql postgresql-contrib)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >/dev/null
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  log "starting PostgreSQL $version"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || $SUDO pg_ctlcluster "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 0.5; done
fi

# Run SQL as the database superuser: over TCP where trust auth allows it, else through the local socket.
as_superuser() {
  if psql -h 127.0.0.1 -U postgres -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; then
    psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -tAc "$1"
  else
    $SUDO runuser -u postgres -- psql -d postgres -v ON_ERROR_STOP=1 -tAc "$1"
  fi
}
if [ "$(as_superuser "SELECT 1 FROM pg_roles WHERE rolname = '$DB_ROLE'")" != "1" ]; then
  log "creating database role $DB_ROLE"
  as_superuser "CREATE ROLE $DB_ROLE LOGIN CREATEDB PASSWORD '$DB_PASSWORD'"
fi
if [ "$(as_superuser "SELECT 1 FROM pg_database WHERE datname = 'agent_service'")" != "1" ]; then
  log "creating database agent_service"
  as_superuser "CREATE DATABASE agent_service OWNER $DB_ROLE"
fi
# A database made earlier by someone else: the service role must own it to create its schema (PostgreSQL 15+).
if [ "$(as_superuser "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'agent_service'")" != "$DB_ROLE" ]; then
  log "giving database agent_service to $DB_ROLE"
  as_superuser "ALTER DATABASE agent_service OWNER TO $DB_ROLE"
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  mkdir -p /tmp/agent-service-redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir /tmp/agent-service-redis \
    --logfile /tmp/agent-service-redis/redis.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
