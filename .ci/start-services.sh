#!/usr/bin/env bash
# Starts PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) when nothing accepts connections
# on their ports, then waits until they do (up to SERVICES_WAIT_SECONDS, default 60 each). They
# back the tests of @routekit/postgres and @routekit/redis. Exits non-zero when one never comes up.
set -euo pipefail

host=127.0.0.1
limit="${SERVICES_WAIT_SECONDS:-60}"

accepting() {
  (exec 3<>"/dev/tcp/${host}/$1") 2>/dev/null
}

wait_for() {
  local name="$1" port="$2"
  for ((second = 1; second <= limit; second++)); do
    sleep 1
    if accepting "$port"; then
      echo "${name}: accepting connections on ${host}:${port} after ${second} s"
      return 0
    fi
  done
  echo "${name}: still not accepting connections on ${host}:${port} after ${limit} s" >&2
  return 1
}

if accepting 5432; then
  echo "PostgreSQL: accepting connections on ${host}:5432"
elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "PostgreSQL: not running; starting cluster ${version}/main with pg_ctlcluster"
  pg_ctlcluster --skip-systemctl-redirect "${version}" main start
  wait_for PostgreSQL 5432
else
  echo "PostgreSQL: nothing listens on ${host}:5432 and no cluster (pg_ctlcluster) is installed" >&2
  exit 1
fi

if accepting 6379; then
  echo "Redis: accepting connections on ${host}:6379"
elif command -v redis-server >/dev/null 2>&1; then
  echo "Redis: not running; starting redis-server (no persistence)"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis 6379
else
  echo "Redis: nothing listens on ${host}:6379 and redis-server is not installed" >&2
  exit 1
fi
